package io.msgx.pipeline.audit;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of the operator audit trail ({@code OPERATOR_AUDIT}, D-137): when (the injected clock), who and from where
 * ({@link Actor}), what ({@link AuditAction#code()}), the items asked for (IDs, a FLID, a day, a type; null for none),
 * and what came of it ({@link AuditResult}). Written in the transaction of the action's own change, never changed.
 *
 * @param action the action's code ({@link AuditAction#code()}); a text, so that rows of another build read back
 */
public record AuditEntry(Instant at, Actor actor, String action, String items, AuditResult result) {

    public AuditEntry {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(result, "result");
        if (action == null || action.isBlank() || action.length() > AuditAction.MAX_CODE_LENGTH) {
            throw new IllegalArgumentException("an audited action has a code of 1 to " + AuditAction.MAX_CODE_LENGTH
                    + " characters, got '" + action + "'");
        }
        items = items == null || items.isEmpty() ? null : items;
    }

    public AuditEntry(Instant at, Actor actor, AuditAction action, String items, AuditResult result) {
        this(at, actor, action.code(), items, result);
    }

    public AuditOutcome outcome() {
        return result.outcome();
    }
}
