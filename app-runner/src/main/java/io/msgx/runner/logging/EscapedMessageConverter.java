package io.msgx.runner.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %escapedMsg} in the text log pattern (logback.xml): the message with every control character escaped, so
 * that one event is always one line and nothing a message carries can start a line of its own (issue 36, point 4).
 * A log message quotes message content (a {@code DTTM} that is no time, an unmapped path, a reason); an AODB message
 * with CR/LF in such a value could otherwise write a line that looks like any other, an {@code AUDIT} line included.
 *
 * <p>{@code \r}, {@code \n} and {@code \t} become those two-character escapes, a backslash stays a backslash (a
 * reader tells an escape from text by the context it quotes), and every other control character (C0, DEL, C1) and
 * the Unicode line and paragraph separators become {@code \\uXXXX}. The JSON format escapes by its own rules and is
 * left alone.
 */
public final class EscapedMessageConverter extends MessageConverter {

    @Override
    public String convert(ILoggingEvent event) {
        return escaped(super.convert(event));
    }

    /** {@code text} with its control characters escaped; the same string when it has none (the usual case). */
    public static String escaped(String text) {
        if (text == null) {
            return null;
        }
        int first = 0;
        while (first < text.length() && !isControl(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        var escaped = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\r' -> escaped.append("\\r");
                case '\n' -> escaped.append("\\n");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (isControl(c)) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
