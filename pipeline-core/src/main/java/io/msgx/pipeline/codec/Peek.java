package io.msgx.pipeline.codec;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code TYPE} and {@code STYP} read by a plain text scan, for ignore rules and diagnostics on a body that is
 * not well-formed (truncated, broken, over the size limit). Takes the first {@code <TYPE>} and
 * {@code <STYP>} in the text whose value is followed by a {@code <}; a value cut off by truncation is not
 * trusted and gives empty. Values are upper-cased. The patterns are bounded, so the scan is linear.
 */
public record Peek(Optional<String> type, Optional<String> subtype) {

    private static final Pattern TYPE = element("TYPE");
    private static final Pattern STYP = element("STYP");

    public Peek {
        type = type.map(value -> value.toUpperCase(Locale.ROOT));
        subtype = subtype.map(value -> value.toUpperCase(Locale.ROOT));
    }

    public static Peek scan(String text) {
        if (text == null) {
            return new Peek(Optional.empty(), Optional.empty());
        }
        return new Peek(first(TYPE, text), first(STYP, text));
    }

    private static Pattern element(String name) {
        return Pattern.compile("<" + name + "(?:\\s[^<>]{0,256})?>\\s{0,64}([^<>\\s]{1,64})\\s{0,64}<");
    }

    private static Optional<String> first(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** {@code TYPE-STYP} when both were found. */
    public Optional<String> kind() {
        return type.flatMap(t -> subtype.map(st -> MessageMeta.kind(t, st)));
    }
}
