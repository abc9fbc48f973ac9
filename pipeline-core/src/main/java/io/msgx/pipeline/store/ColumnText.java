package io.msgx.pipeline.store;

/**
 * Operator text (an error, a reason, a note) cut to fit its column: the text is for operators, not worth a failed
 * write. A cut never splits a surrogate pair, so what is stored is still valid text.
 */
public final class ColumnText {

    private ColumnText() {
    }

    /** {@code text} cut to at most {@code width} characters; null stays null. */
    public static String fitted(String text, int width) {
        return fitted(text, width, Integer.MAX_VALUE);
    }

    /**
     * {@code text} cut to at most {@code width} characters and at most {@code maxUtf8Bytes} bytes in UTF-8 (a column
     * whose width the database also bounds in bytes, as Oracle 11g bounds every VARCHAR2 by 4000); null stays null.
     */
    public static String fitted(String text, int width, int maxUtf8Bytes) {
        if (text == null) {
            return null;
        }
        int end = Math.min(text.length(), width);
        // A character takes at most 3 bytes (a surrogate pair 4, 2 for each half): a shorter cut cannot be needed.
        if ((long) maxUtf8Bytes < 3L * end) {
            long bytes = 0;
            for (int i = 0; i < end; i++) {
                char c = text.charAt(i);
                int size = c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
                if (bytes + size > maxUtf8Bytes) {
                    end = i;
                    break;
                }
                bytes += size;
            }
        }
        if (end < text.length() && end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return end == text.length() ? text : text.substring(0, end);
    }
}
