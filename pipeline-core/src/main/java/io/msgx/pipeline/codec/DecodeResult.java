package io.msgx.pipeline.codec;

import java.util.Objects;

/** What decoding one message came to. Every reason names the element and why. */
public sealed interface DecodeResult {

    /** A well-formed message of a known or unsupported kind. */
    record Decoded(DecodedMessage message) implements DecodeResult {
        public Decoded {
            Objects.requireNonNull(message, "message");
        }
    }

    /** The message breaks the contract (sis-format.md) or a codec limit; retrying cannot help. */
    record Malformed(String reason) implements DecodeResult {
        public Malformed {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * A defect on our side: an unexpected exception while reading a document that parsed. The reason names
     * the exception class and message; the stack trace is logged.
     */
    record CodecError(String reason) implements DecodeResult {
        public CodecError {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
