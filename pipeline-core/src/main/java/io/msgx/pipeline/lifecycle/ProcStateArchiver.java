package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.port.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * Moves settled terminal records to {@code PROC_STATE_HST} (seeds §9.3), leaving a dedup shadow, and forgets
 * shadows older than the dedup memory.
 *
 * <p>A record qualifies when it is terminal, its mark is settled (confirmed, or abandoned <b>and</b>
 * reconciled by an operator) and {@code archive-after} has passed since its last update. Each record is
 * archived in its own transaction that re-checks the state it was listed with, so a replay that got there
 * first simply wins. The job never takes {@code PIPELINE_LOCK}: it must not hold up the pump.
 */
public final class ProcStateArchiver {

    private static final Logger log = LoggerFactory.getLogger(ProcStateArchiver.class);

    private final PipelineStore store;
    private final RecordArchiving archiving;
    private final LifecycleSettings settings;
    private final int batch;
    private final Clock clock;

    public ProcStateArchiver(PipelineStore store, LifecycleSettings settings, int batch, Clock clock) {
        this.store = store;
        this.archiving = new RecordArchiving(store);
        this.settings = settings;
        this.batch = batch;
        this.clock = clock;
    }

    /** What one round did. */
    public record Round(int archived, int skipped, int forgotten) {
    }

    public Round runOnce() {
        var now = clock.instant();
        int archived = 0;
        int skipped = 0;
        for (var candidate : store.messageArchive().archiveCandidates(now.minus(settings.archiveAfter()), batch)) {
            if (archiving.archive(candidate, now)) {
                archived++;
            } else {
                skipped++;
            }
        }
        int forgotten = store.messageArchive().forgetArchivedBefore(now.minus(settings.dedupMemory()), batch);
        if (archived + skipped + forgotten > 0) {
            log.info("Archived {} processing records ({} changed meanwhile and were left), forgot {} dedup shadows",
                    archived, skipped, forgotten);
        }
        return new Round(archived, skipped, forgotten);
    }
}
