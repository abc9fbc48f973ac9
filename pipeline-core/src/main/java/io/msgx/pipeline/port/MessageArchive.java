package io.msgx.pipeline.port;

import io.msgx.pipeline.store.ProcRecord;

import java.time.Instant;
import java.util.List;

/**
 * The archive of settled processing records (seeds §9.3): the candidates, the move to {@code PROC_STATE_HST} that
 * leaves a dedup shadow, and forgetting shadows once the dedup memory has passed.
 */
public interface MessageArchive {

    /**
     * Terminal rows whose backfill is settled ({@code BACKFILL_AT} set, or abandoned and reconciled) and whose
     * last update ({@code UPDATED_AT}) is before {@code settledBefore}; oldest first, at most {@code limit}.
     */
    List<ProcRecord> archiveCandidates(Instant settledBefore, int limit);

    /**
     * Archive one candidate, in one transaction: copy the row to {@code PROC_STATE_HST}, then reduce it to
     * its dedup shadow ({@code STATE='ARCHIVED'}, only {@code MSG_ID} and {@code IDENTITY_KEY} kept) on the
     * condition that its state and {@code UPDATED_AT} are still the candidate's. False, with nothing
     * written, when the row changed meanwhile (a replay won).
     */
    boolean archive(ProcRecord candidate, Instant now);

    /** Forget dedup shadows archived before {@code cutoff} (the dedup memory has passed); at most {@code limit}. */
    int forgetArchivedBefore(Instant cutoff, int limit);
}
