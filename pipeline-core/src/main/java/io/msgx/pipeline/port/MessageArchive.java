package io.msgx.pipeline.port;

import io.msgx.pipeline.record.ProcRecord;

import java.time.Instant;
import java.util.List;

/**
 * The archive of settled processing records (seeds §9.3): the candidates, the two statements that move a record to
 * {@code PROC_STATE_HST} and leave a dedup shadow (the move itself, in one transaction, is
 * {@code io.msgx.pipeline.lifecycle.RecordArchiving}), and forgetting shadows once the dedup memory has passed.
 */
public interface MessageArchive {

    /**
     * Terminal rows whose backfill is settled ({@code BACKFILL_AT} set, or abandoned and reconciled) and whose
     * last update ({@code UPDATED_AT}) is before {@code settledBefore}; oldest first, at most {@code limit}.
     */
    List<ProcRecord> archiveCandidates(Instant settledBefore, int limit);

    /**
     * One statement: copy the candidate's row to {@code PROC_STATE_HST}, archived at {@code now}, with its
     * reconciliation if it has one, when the row is still as listed (the candidate's state and {@code UPDATED_AT}),
     * terminal and settled. False, nothing written, otherwise. The first step of archiving a record
     * ({@code io.msgx.pipeline.lifecycle.RecordArchiving}); runs in its transaction.
     */
    boolean copyToHistory(ProcRecord candidate, Instant now);

    /**
     * One statement: reduce the candidate's row to its dedup shadow ({@code STATE='ARCHIVED'}, only {@code MSG_ID},
     * {@code IDENTITY_KEY} and {@code ENQUEUED_AT} kept, {@code UPDATED_AT = now}) when it is still as listed. False
     * when it changed (a replay committed after the copy). The second step of archiving a record.
     */
    boolean reduceToShadow(ProcRecord candidate, Instant now);

    /** Forget dedup shadows archived before {@code cutoff} (the dedup memory has passed); at most {@code limit}. */
    int forgetArchivedBefore(Instant cutoff, int limit);
}
