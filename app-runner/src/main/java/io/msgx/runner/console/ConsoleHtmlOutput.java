package io.msgx.runner.console;

import gg.jte.TemplateOutput;
import gg.jte.html.OwaspHtmlTemplateOutput;

import java.util.Locale;

/**
 * Where the console's templates write, escaping by default: every {@code ${...}} of a template reaches the page
 * through {@link Html#esc} (text for an element body or a double-quoted attribute, {@code null} shown as an en dash),
 * exactly as the console escaped before it had templates. jte's own rules stay on top: its compile-time policy
 * refuses a value in an unquoted or single-quoted attribute, an event handler or a tag name, and a value inside a
 * {@code <script>} or {@code <style>} (none of the console's templates has one) keeps jte's JavaScript escaping.
 *
 * <p>Raw output is allowed nowhere: no template uses {@code $unsafe{...}} ({@code ConsoleEscapingTest} fails if one
 * does). What reaches the page unescaped is the templates' own text and a {@link gg.jte.Content} block, which is
 * template text written through this same output (the layout's {@code content}). The raw XML of a message is no
 * exception: {@link XmlPretty} only indents it and does not escape, so it is escaped here like any other value.
 */
final class ConsoleHtmlOutput extends OwaspHtmlTemplateOutput {

    private String tag;
    private String attribute;

    ConsoleHtmlOutput(TemplateOutput out) {
        super(out);
    }

    @Override
    public void setContext(String tagName, String attributeName) {
        super.setContext(tagName, attributeName);
        this.tag = tagName;
        this.attribute = attributeName;
    }

    @Override
    public void writeUserContent(String value) {
        if (scriptOrStyle()) {
            super.writeUserContent(value);
        } else {
            writeContent(Html.esc(value));
        }
    }

    @Override
    public void writeUserContent(Enum<?> value) {
        writeUserContent(value == null ? null : value.toString());
    }

    @Override
    public void writeUserContent(Number value) {
        writeUserContent(value == null ? null : value.toString());
    }

    @Override
    public void writeUserContent(Boolean value) {
        writeUserContent(value == null ? null : value.toString());
    }

    @Override
    public void writeUserContent(Character value) {
        writeUserContent(value == null ? null : value.toString());
    }

    private boolean scriptOrStyle() {
        if (attribute != null) {
            return attribute.toLowerCase(Locale.ROOT).startsWith("on") || attribute.equalsIgnoreCase("style");
        }
        return tag != null && (tag.equalsIgnoreCase("script") || tag.equalsIgnoreCase("style"));
    }
}
