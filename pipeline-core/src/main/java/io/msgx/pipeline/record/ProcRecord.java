package io.msgx.pipeline.record;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code PROC_STATE}: an inbound message's processing state, identity, attempts, error, and its
 * backfill facts (whether the mailbox mark is still owed).
 *
 * @param receivedAt  the mailbox's receive time, copied; may be null; shown, never used to decide
 * @param enqueuedAt  our own time of enqueueing; never null; the only basis for "overdue"
 * @param backfillNextAt when the mark is next due; non-null means a mark is owed
 * @param backfillAt  when the mark was confirmed; non-null means nothing is owed
 * @param backfillFailingSince when the transient failures of the mark still owed began (its first failure); null
 *                    when it has not failed since it was last confirmed, reopened or replayed. {@code R} counts from
 *                    it to the mark's abandonment (D-104)
 */
public record ProcRecord(
        long msgId,
        ProcStatus status,
        String identityKey,
        int attempts,
        Instant nextAttemptAt,
        ErrorClass errorClass,
        String lastError,
        Instant receivedAt,
        Instant enqueuedAt,
        Instant updatedAt,
        Instant backfillNextAt,
        Instant backfillAt,
        int backfillAttempts,
        Instant backfillAbandonedAt,
        String backfillAbandonedReason,
        Instant backfillFailingSince) {

    public ProcRecord {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
    }
}
