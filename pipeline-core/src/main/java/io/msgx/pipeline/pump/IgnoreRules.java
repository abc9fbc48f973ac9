package io.msgx.pipeline.pump;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Message types we receive and deliberately do not process ({@code msgx.pipeline.ignore}): each rule is
 * {@code TYPE-STYP} or {@code TYPE-*}, matched case-insensitively. A matching message ends
 * {@code SKIPPED(ignored:<rule>)} after its identity is bound; it changes no flight and emits nothing.
 */
public final class IgnoreRules {

    public static final String KEY = "msgx.pipeline.ignore";

    /** The environment variable that sets {@link #KEY}. */
    public static final String ENVIRONMENT_VARIABLE = "MSGX_PIPELINE_IGNORE";

    /** The baseline list: load messages, registrations, resource status and AODB error reports. */
    public static final List<String> BASELINE = List.of("LDM-*", "REGN-*", "RSTA-*", "EROR-*");

    private final List<Rule> rules;

    private IgnoreRules(List<Rule> rules) {
        this.rules = rules;
    }

    public static IgnoreRules of(List<String> texts) {
        return new IgnoreRules(texts.stream().map(Rule::parse).toList());
    }

    public static IgnoreRules baseline() {
        return of(BASELINE);
    }

    /**
     * The value of {@link #KEY} that keeps these rules and adds one for messages of {@code type} and {@code subtype},
     * as an operator would write it ({@code LDM-*,REGN-*,RSTA-*,EROR-*,WXYZ-RESP}); empty when no rule can name them
     * (a {@code TYPE} holding {@code -}, or an empty one).
     */
    public Optional<String> withRule(String type, String subtype) {
        Rule rule;
        try {
            rule = Rule.parse(type + "-" + subtype);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!rule.type().equalsIgnoreCase(type) || !rule.matches(type, subtype)) {
            return Optional.empty();
        }
        var texts = new ArrayList<>(rules.stream().map(Rule::text).toList());
        texts.add(rule.text());
        return Optional.of(String.join(",", texts));
    }

    /** The first rule matching the message's TYPE and STYP, as written ({@code LDM-*}). */
    public Optional<String> match(String type, String subtype) {
        return rules.stream().filter(r -> r.matches(type, subtype)).map(Rule::text).findFirst();
    }

    /**
     * The first rule naming the message's {@code TYPE} and its {@code STYP} itself ({@code REGN-RESP}), a wildcard
     * ({@code REGN-*}) not counting: how the answer to our own reference request is ignored (D-115).
     */
    public Optional<String> matchNamingSubtype(String type, String subtype) {
        return rules.stream().filter(r -> !r.subtype().equals("*") && r.matches(type, subtype)).map(Rule::text)
                .findFirst();
    }

    private record Rule(String type, String subtype) {

        static Rule parse(String text) {
            var trimmed = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
            var dash = trimmed.indexOf('-');
            if (dash <= 0 || dash == trimmed.length() - 1) {
                throw new IllegalArgumentException(KEY + " entry '" + text + "' is not TYPE-STYP or TYPE-*");
            }
            return new Rule(trimmed.substring(0, dash), trimmed.substring(dash + 1));
        }

        boolean matches(String messageType, String messageSubtype) {
            return type.equalsIgnoreCase(messageType)
                    && (subtype.equals("*") || subtype.equalsIgnoreCase(messageSubtype));
        }

        String text() {
            return type + "-" + subtype;
        }
    }
}
