package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ProcRecord;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Moves one settled processing record to {@code PROC_STATE_HST} and leaves its dedup shadow (seeds §9.3), in one
 * transaction of its own that never takes {@code PIPELINE_LOCK}: copy the row (with its reconciliation) if it is still
 * as listed, terminal and settled; reduce it to its shadow if it is still as listed; forget its reconciliation, which
 * now lives in the archived copy. A record that changed after it was listed (a replay, a reopening) is left as it is,
 * and nothing is written: a replay that commits between the copy and the shadow rolls the copy back. One algorithm for
 * every store; the stores run its statements ({@link io.msgx.pipeline.port.MessageArchive}).
 */
public final class RecordArchiving {

    private final PipelineStore store;

    public RecordArchiving(PipelineStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Archive {@code candidate} as listed; false, nothing written, when it is not terminal or changed meanwhile. */
    public boolean archive(ProcRecord candidate, Instant now) {
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(now, "now");
        if (!candidate.status().isTerminal()) {
            return false;
        }
        try {
            return store.inTransaction(tx -> {
                if (!tx.messageArchive().copyToHistory(candidate, now)) {
                    return false;
                }
                if (!tx.messageArchive().reduceToShadow(candidate, now)) {
                    throw new ChangedMeanwhile();
                }
                tx.backfillMarks().forgetReconciliations(List.of(candidate.msgId()));
                return true;
            });
        } catch (ChangedMeanwhile refused) {
            return false;
        }
    }

    /** Rolls back a copy whose row changed before it could be shadowed. */
    private static final class ChangedMeanwhile extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ChangedMeanwhile() {
            super("the record changed between its copy and its shadow", null, false, false);
        }
    }
}
