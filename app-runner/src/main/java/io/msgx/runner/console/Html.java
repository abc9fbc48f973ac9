package io.msgx.runner.console;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The console's escaping and its formats. {@link #esc} is how every value reaches a page: the templates' output
 * ({@link ConsoleHtmlOutput}) sends each {@code ${...}} through it, so message XML, error texts, identities, flight
 * fields and operator names, all hostile input, are text and never markup.
 */
final class Html {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    private Html() {
    }

    /** Escape text for an element body or a double-quoted attribute. Null is shown as an en dash. */
    static String esc(Object value) {
        if (value == null) {
            return "–";
        }
        var text = value.toString();
        var escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
                        escaped.append('\uFFFD');
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    /** A query-string value, percent-encoded. */
    static String url(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
    }

    static String time(Instant instant) {
        return instant == null ? "–" : TIME.format(instant);
    }

    /** {@code 3m 12s}, {@code 2h 5m}, {@code 40s}. */
    static String age(Duration age) {
        if (age == null) {
            return "–";
        }
        long s = Math.max(0, age.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m " + (s % 60) + "s";
        }
        if (s < 86_400) {
            return (s / 3600) + "h " + (s % 3600 / 60) + "m";
        }
        return (s / 86_400) + "d " + (s % 86_400 / 3600) + "h";
    }
}
