package io.msgx.runner.console;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Building the console's pages. Every value that did not come from this class's own constants goes through
 * {@link #esc}: message XML, error texts, identities and flight fields are hostile input.
 */
final class Html {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    private final StringBuilder out = new StringBuilder(8192);

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

    /** Append markup written here (never user data). */
    Html raw(String markup) {
        out.append(markup);
        return this;
    }

    /** Append escaped text. */
    Html text(Object value) {
        out.append(esc(value));
        return this;
    }

    /** A {@code <tr><th>label</th><td>value</td></tr>} row, both escaped. */
    Html row(String label, Object value) {
        return raw("<tr><th>").text(label).raw("</th><td>").text(value).raw("</td></tr>");
    }

    /** The hidden CSRF field every form of a cookie session carries. */
    Html csrf(String token) {
        return raw("<input type=\"hidden\" name=\"csrf\" value=\"").text(token).raw("\">");
    }

    /** The whole page around {@code body}. */
    static String page(String title, String operator, String csrf, String body) {
        var page = new Html();
        page.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .raw("<title>msgexchange · ").text(title).raw("</title>")
                .raw("<link rel=\"stylesheet\" href=\"/console/static/console.css\">")
                .raw("<script src=\"/console/static/console.js\" defer></script></head><body>")
                .raw("<header><a class=\"brand\" href=\"/console/\">msgexchange</a><nav>")
                .raw("<a href=\"/console/\">Overview</a><a href=\"/console/message\">Message</a>")
                .raw("<a href=\"/console/flight\">Flight</a><a href=\"/console/dead\">DEAD</a>"
                        + "<a href=\"/console/events\">DEAD events</a>")
                .raw("<a href=\"/console/abandoned\">Abandoned marks</a><a href=\"/console/reference\">Reference data</a></nav>");
        if (operator != null) {
            page.raw("<form class=\"logout\" method=\"post\" action=\"/console/logout\">");
            if (csrf != null) {
                page.csrf(csrf);
            }
            page.raw("<span class=\"who\">").text(operator).raw("</span><button type=\"submit\">Log out</button></form>");
        }
        page.raw("</header><main><h1>").text(title).raw("</h1>").raw(body).raw("</main></body></html>\n");
        return page.toString();
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
