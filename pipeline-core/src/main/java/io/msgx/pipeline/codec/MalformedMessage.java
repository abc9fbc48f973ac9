package io.msgx.pipeline.codec;

/**
 * Thrown inside the codec when a message breaks the contract; {@link JacksonXmlCodec#decode} turns it into
 * {@link DecodeResult.Malformed}. It never leaves the codec. No stack trace: it is an outcome, not a defect.
 */
final class MalformedMessage extends RuntimeException {

    MalformedMessage(String reason) {
        super(reason, null, false, false);
    }
}
