package io.msgx.pipeline.port;

import io.msgx.pipeline.record.ProcRecord;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The processed marks owed to the shared mailbox (seeds §6): which are due, their confirmation, retries and
 * abandonment, and the statements of the operators' reopening and reconciliation of abandoned marks (the operations
 * themselves are {@code io.msgx.pipeline.lifecycle.MarkSettlement}).
 */
public interface BackfillMarks {

    /**
     * Rows whose mark is owed and may be written now, with exactly the seeds' predicate: terminal
     * ({@code SUCCEEDED}, {@code SKIPPED}, {@code DEAD}; never {@code ARCHIVED}), {@code BACKFILL_AT} null,
     * not abandoned, and ({@code BACKFILL_NEXT_AT} null, or due by {@code now}, or {@code ENQUEUED_AT} before
     * {@code overdueBefore} = now − R, which overrides the backoff). Ordered by {@code BACKFILL_ATTEMPTS}, then
     * {@code MSG_ID}, so rows that keep failing cannot fill a batch; at most {@code limit}.
     */
    List<ProcRecord> backfillDue(Instant now, Instant overdueBefore, int limit);

    /**
     * The mark is confirmed in the mailbox: {@code BACKFILL_AT = at}, and its failures are over
     * ({@code BACKFILL_FAILING_SINCE} null). False when already confirmed or abandoned.
     */
    boolean backfillConfirmed(long msgId, Instant at);

    /**
     * {@link #backfillConfirmed} for marks written together; returns how many were confirmed. The default confirms
     * one by one; a store overrides it with one statement.
     */
    default int backfillConfirmedAll(Collection<Long> msgIds, Instant at) {
        int confirmed = 0;
        for (long msgId : msgIds) {
            confirmed += backfillConfirmed(msgId, at) ? 1 : 0;
        }
        return confirmed;
    }

    /**
     * A transient failure to write the mark: attempts one more, next try at {@code nextAt}, and
     * {@code BACKFILL_FAILING_SINCE} set to {@code now} unless an earlier failure set it (the start of {@code R}'s
     * abandonment clock, D-104). False when the mark is not owed.
     */
    boolean backfillFailed(long msgId, Instant nextAt, Instant now);

    /**
     * Stop retrying the mark automatically ({@code MISSING_ROW}, {@code TRANSIENT_DEADLINE}). Abandoned is not
     * marked: {@code BACKFILL_AT} stays null. False when already confirmed or abandoned.
     */
    boolean backfillAbandoned(long msgId, String reason, Instant at);

    /** Abandoned rows, oldest first, with whether each was reconciled, for the operators' reconciliation. */
    List<AbandonedMark> abandonedMarks(int limit);

    /** The width of {@code BACKFILL_RECONCILIATION.OPERATOR}: an operator's name in a reconciliation. */
    int MAX_OPERATOR_LENGTH = 64;

    /**
     * One statement: the abandoned rows among {@code msgIds} lose their abandonment and the start of their failures,
     * and are due at once (an operator's reopening, {@code io.msgx.pipeline.lifecycle.MarkSettlement}); returns the
     * IDs changed, ascending. Rows not abandoned are left alone; their reconciliations are not touched here.
     */
    List<Long> clearAbandonment(Collection<Long> msgIds, Instant now);

    /**
     * One statement: an abandoned row's {@code UPDATED_AT} becomes {@code at}, so settling it by hand starts its
     * archive threshold (seeds §9.3). False when the row is not abandoned.
     */
    boolean touchAbandoned(long msgId, Instant at);

    /**
     * One statement: record, or replace, the reconciliation of a row ({@code BACKFILL_RECONCILIATION}): who settled
     * it by hand, when and why; the note is cut to the column's width. {@code operator} has 1 to
     * {@value #MAX_OPERATOR_LENGTH} characters.
     */
    void recordReconciliation(long msgId, String operator, String note, Instant at);

    /** One statement: forget the reconciliations of these rows (reopened, or archived with their record). */
    void forgetReconciliations(Collection<Long> msgIds);

    /** Marks owed (not abandoned), and abandoned rows with and without reconciliation. */
    BackfillBacklog backfillBacklog();

    /** An abandoned mark as listed for reconciliation. */
    record AbandonedMark(ProcRecord record, Instant reconciledAt, String reconciledBy, String note) {
    }

    record BackfillBacklog(long owed, long abandoned, long abandonedUnreconciled) {
    }
}
