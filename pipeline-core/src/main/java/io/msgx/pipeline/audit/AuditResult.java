package io.msgx.pipeline.audit;

import java.util.Collection;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The outcome part of an audit row: done, partly or refused, what changed and what was refused (each a text such as
 * {@code 10, 11}), and a detail (a reason, a note, why it was refused). Empty texts are kept as null, as Oracle would.
 */
public record AuditResult(AuditOutcome outcome, String changed, String refused, String detail) {

    public AuditResult {
        Objects.requireNonNull(outcome, "outcome");
        changed = blankAsNull(changed);
        refused = blankAsNull(refused);
        detail = blankAsNull(detail);
    }

    /**
     * The outcome of an action on several items: {@link AuditOutcome#DONE} when nothing asked for was refused (nothing
     * to do included), {@link AuditOutcome#REFUSED} when nothing changed and something was refused, else
     * {@link AuditOutcome#PARTLY}.
     */
    public static AuditResult of(Collection<?> changed, Collection<?> refused, String detail) {
        var outcome = refused.isEmpty() ? AuditOutcome.DONE
                : changed.isEmpty() ? AuditOutcome.REFUSED : AuditOutcome.PARTLY;
        return new AuditResult(outcome, list(changed), list(refused), detail);
    }

    /** Done: {@code changed} says what changed. */
    public static AuditResult done(String changed, String detail) {
        return new AuditResult(AuditOutcome.DONE, changed, null, detail);
    }

    /** Refused, nothing changed: {@code refused} says what, {@code why} why. */
    public static AuditResult refused(String refused, String why) {
        return new AuditResult(AuditOutcome.REFUSED, null, refused, why);
    }

    /** Items as one text: {@code 10, 11, 12}; null for none. */
    public static String list(Collection<?> items) {
        return items == null || items.isEmpty() ? null
                : items.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static String blankAsNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }
}
