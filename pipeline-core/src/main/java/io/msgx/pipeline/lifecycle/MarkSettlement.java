package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.audit.AuditedAction;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The operators' settlement of abandoned mailbox marks, each operation one transaction of its own (never holding
 * {@code PIPELINE_LOCK}): reopening gives rows back to the backfill job, reconciling records that a row was settled by
 * hand, which is what lets an abandoned row be archived. One algorithm for every store; the stores run its statements
 * ({@link BackfillMarks}).
 */
public final class MarkSettlement {

    private final PipelineStore store;

    public MarkSettlement(PipelineStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Reopen abandoned rows: abandonment and any reconciliation cleared, due at once. Returns the IDs reopened,
     * ascending (rows not abandoned are left alone).
     */
    public List<Long> reopen(Collection<Long> msgIds, Instant now) {
        Objects.requireNonNull(now, "now");
        var ids = msgIds.stream().filter(Objects::nonNull).distinct().toList();
        if (ids.isEmpty()) {
            return List.of();
        }
        return store.inTransaction(tx -> reopenIn(tx, ids, now));
    }

    /**
     * {@link #reopen} as an operator's audited action (D-138): the reopening and its {@code OPERATOR_AUDIT} row in one
     * transaction, the IDs not abandoned recorded as refused.
     */
    public List<Long> reopen(Collection<Long> msgIds, Instant now, AuditedAction audit) {
        Objects.requireNonNull(now, "now");
        var ids = msgIds.stream().filter(Objects::nonNull).distinct().sorted().toList();
        return audit.run(tx -> ids.isEmpty() ? List.<Long>of() : reopenIn(tx, ids, now), reopened -> AuditResult.of(
                reopened, ids.stream().filter(id -> !reopened.contains(id)).toList(),
                reopened.size() == ids.size() ? null : "no abandoned mark"));
    }

    private static List<Long> reopenIn(PipelineTransaction tx, List<Long> ids, Instant now) {
        var reopened = tx.backfillMarks().clearAbandonment(ids, now);
        if (!reopened.isEmpty()) {
            tx.backfillMarks().forgetReconciliations(reopened);
        }
        return reopened;
    }

    /**
     * An operator confirms an abandoned row was settled by hand (the mailbox side checked or purged it): an audited
     * record of who, when and why, and the row's archive threshold counts from {@code at}. False when the row is not
     * abandoned.
     *
     * @throws IllegalArgumentException when {@code operator} is blank or longer than
     *                                  {@value BackfillMarks#MAX_OPERATOR_LENGTH} characters
     */
    public boolean reconcile(long msgId, String operator, String note, Instant at) {
        Objects.requireNonNull(at, "at");
        if (operator == null || operator.isBlank() || operator.length() > BackfillMarks.MAX_OPERATOR_LENGTH) {
            throw new IllegalArgumentException("a reconciliation names its operator in 1 to "
                    + BackfillMarks.MAX_OPERATOR_LENGTH + " characters, got "
                    + (operator == null ? "none" : "'" + operator + "'"));
        }
        return store.inTransaction(tx -> reconcileIn(tx, msgId, operator, note, at));
    }

    /**
     * {@link #reconcile} as an operator's audited action (D-138), the operator being {@code audit}'s: the
     * reconciliation and its {@code OPERATOR_AUDIT} row in one transaction; a row without an abandoned mark is recorded
     * as refused.
     */
    public boolean reconcile(long msgId, String note, Instant at, AuditedAction audit) {
        Objects.requireNonNull(at, "at");
        var operator = audit.actor().name();
        return audit.run(tx -> reconcileIn(tx, msgId, operator, note, at), done -> done
                ? AuditResult.done("message " + msgId + " reconciled", note)
                : AuditResult.refused("message " + msgId, "no abandoned mark"));
    }

    private static boolean reconcileIn(PipelineTransaction tx, long msgId, String operator, String note, Instant at) {
        if (!tx.backfillMarks().touchAbandoned(msgId, at)) {
            return false;
        }
        tx.backfillMarks().recordReconciliation(msgId, operator, note, at);
        return true;
    }
}
