package io.msgx.pipeline.codec;

/**
 * How much the codec reads before it refuses a message. Every limit ends in {@link DecodeResult.Malformed}.
 *
 * @param maxMessageBytes the largest message, in UTF-8 bytes, measured before parsing (default 2 MiB)
 * @param maxElementDepth the deepest element nesting, {@code MSG} being depth 1 (default 32)
 * @param maxTextLength   the longest text of one element and the longest attribute value, in characters
 *                        (default 64 Ki). Flight values have the tighter {@code FlightField.MAX_VALUE_LENGTH}.
 */
public record CodecLimits(int maxMessageBytes, int maxElementDepth, int maxTextLength) {

    public static final CodecLimits DEFAULTS = new CodecLimits(2 * 1024 * 1024, 32, 64 * 1024);

    public CodecLimits {
        if (maxMessageBytes < 1 || maxElementDepth < 1 || maxTextLength < 1) {
            throw new IllegalArgumentException("codec limits must be positive: " + maxMessageBytes + ", "
                    + maxElementDepth + ", " + maxTextLength);
        }
    }
}
