package io.msgx.runner.console;

import java.util.ArrayList;
import java.util.List;

/**
 * Indents SIS XML for reading, lexically: tags and text are split and laid out one element per line, nothing is
 * parsed, so a malformed or hostile message (a DOCTYPE, an entity bomb, a tag never closed) is shown as it is, never
 * resolved or refused. The result is plain text: escape it before it goes into a page.
 */
final class XmlPretty {

    /** Longer text is shown cut, with a note: a page is for reading, the mailbox keeps the whole message. */
    static final int MAX_CHARS = 1 << 20;

    private XmlPretty() {
    }

    static String indent(String xml) {
        if (xml == null) {
            return null;
        }
        boolean cut = xml.length() > MAX_CHARS;
        var tokens = tokens(cut ? xml.substring(0, MAX_CHARS) : xml);
        var out = new StringBuilder(xml.length() + xml.length() / 4);
        int depth = 0;
        for (int i = 0; i < tokens.size(); i++) {
            var token = tokens.get(i);
            if (isOpen(token) && i + 2 < tokens.size() && !isTag(tokens.get(i + 1)) && isClose(tokens.get(i + 2))) {
                line(out, depth, token + tokens.get(i + 1) + tokens.get(i + 2));
                i += 2;
            } else if (isClose(token)) {
                depth = Math.max(0, depth - 1);
                line(out, depth, token);
            } else if (isOpen(token)) {
                line(out, depth, token);
                depth++;
            } else {
                line(out, depth, token);
            }
        }
        if (cut) {
            out.append("… (cut at ").append(MAX_CHARS).append(" of ").append(xml.length()).append(" characters)\n");
        }
        return out.toString();
    }

    private static void line(StringBuilder out, int depth, String text) {
        out.append("  ".repeat(Math.min(depth, 40))).append(text).append('\n');
    }

    private static boolean isTag(String token) {
        return token.startsWith("<");
    }

    private static boolean isClose(String token) {
        return token.startsWith("</");
    }

    private static boolean isOpen(String token) {
        return token.startsWith("<") && !token.startsWith("</") && !token.startsWith("<?") && !token.startsWith("<!")
                && token.endsWith(">") && !token.endsWith("/>");
    }

    /** Tags (comments, CDATA and processing instructions whole) and the trimmed text between them. */
    private static List<String> tokens(String xml) {
        var tokens = new ArrayList<String>();
        int i = 0;
        while (i < xml.length()) {
            int lt = xml.indexOf('<', i);
            if (lt < 0) {
                addText(tokens, xml.substring(i));
                break;
            }
            addText(tokens, xml.substring(i, lt));
            int end;
            if (xml.startsWith("<!--", lt)) {
                end = endOf(xml, "-->", lt);
            } else if (xml.startsWith("<![CDATA[", lt)) {
                end = endOf(xml, "]]>", lt);
            } else {
                end = endOf(xml, ">", lt);
            }
            tokens.add(xml.substring(lt, end));
            i = end;
        }
        return tokens;
    }

    private static int endOf(String xml, String terminator, int from) {
        int at = xml.indexOf(terminator, from + 1);
        return at < 0 ? xml.length() : at + terminator.length();
    }

    private static void addText(List<String> tokens, String text) {
        var trimmed = text.strip();
        if (!trimmed.isEmpty()) {
            tokens.add(trimmed);
        }
    }
}
