package io.msgx.pipeline.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The time constants of backfill, archive and retention, and their start-up check (seeds §9.3).
 *
 * @param backfillOverdue      {@code R} ({@code msgx.pipeline.backfill-overdue}): after this long since enqueue an
 *                             owed mark is tried every round; a transient failure this long after the mark's
 *                             first one abandons it (D-104)
 * @param rawRetention         {@code R_keep} ({@code msgx.pipeline.raw-retention}): how long raw texts must stay
 *                             available for replay (the mailbox side's promise, and our copies' life)
 * @param dedupMemory          ({@code msgx.pipeline.dedup-memory}) how long an archived message's identity
 *                             still refuses a duplicate
 * @param archiveAfter         ({@code msgx.pipeline.archive-after}) how long after its last update a settled
 *                             terminal record moves to {@code PROC_STATE_HST}
 * @param processingHistory    ({@code msgx.retention.processing-history}) life of {@code PROC_STATE_HST} rows
 * @param backfillBackoff      ({@code msgx.pipeline.backfill-backoff}) waits after failed marks; the last repeats
 * @param backfillAlertAttempts ({@code msgx.pipeline.backfill-max-attempts}) attempts after which each further
 *                             failure is an alert; never a reason to give up (only {@code R} is)
 * @param backfillBatch        ({@code msgx.pipeline.backfill-batch}) marks attempted per round
 */
public record LifecycleSettings(
        Duration backfillOverdue,
        Duration rawRetention,
        Duration dedupMemory,
        Duration archiveAfter,
        Duration processingHistory,
        List<Duration> backfillBackoff,
        int backfillAlertAttempts,
        int backfillBatch) {

    public LifecycleSettings {
        Objects.requireNonNull(backfillOverdue, "backfillOverdue");
        Objects.requireNonNull(rawRetention, "rawRetention");
        Objects.requireNonNull(dedupMemory, "dedupMemory");
        Objects.requireNonNull(archiveAfter, "archiveAfter");
        Objects.requireNonNull(processingHistory, "processingHistory");
        backfillBackoff = List.copyOf(backfillBackoff);
        var problems = new ArrayList<String>();
        if (backfillBackoff.isEmpty()) {
            problems.add("msgx.pipeline.backfill-backoff needs at least one tier");
        }
        if (backfillBatch < 1) {
            problems.add("msgx.pipeline.backfill-batch must be at least 1, got " + backfillBatch);
        }
        if (backfillOverdue.compareTo(rawRetention) > 0) {
            problems.add("msgx.pipeline.backfill-overdue (R=" + backfillOverdue + ") must not exceed "
                    + "msgx.pipeline.raw-retention (R_keep=" + rawRetention + "): R <= R_keep (C-7)");
        }
        if (dedupMemory.compareTo(rawRetention) < 0) {
            problems.add("msgx.pipeline.dedup-memory (" + dedupMemory + ") must be at least msgx.pipeline.raw-retention"
                    + " (R_keep=" + rawRetention + "): a message replayable from the mailbox must still be a duplicate (INV-9)");
        }
        if (processingHistory.compareTo(rawRetention) < 0) {
            problems.add("msgx.retention.processing-history (" + processingHistory + ") must be at least "
                    + "msgx.pipeline.raw-retention (R_keep=" + rawRetention + "): the evidence of a mark, or of its "
                    + "abandonment, must stay visible while the mailbox may still hold the row (C-16)");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Lifecycle time constants are inconsistent: " + String.join("; ", problems));
        }
    }

    /**
     * R = 2 h, R_keep = 3 d, dedup memory 30 d, archive after 1 d, processing history 90 d; backfill backoff
     * 10 s, 1 min, 5 min, 15 min (then every 15 min); alert after 10 attempts; 200 marks a round.
     */
    public static LifecycleSettings defaults() {
        return new LifecycleSettings(Duration.ofHours(2), Duration.ofDays(3), Duration.ofDays(30), Duration.ofDays(1),
                Duration.ofDays(90), List.of(Duration.ofSeconds(10), Duration.ofMinutes(1), Duration.ofMinutes(5),
                Duration.ofMinutes(15)), 10, 200);
    }

    /** The wait after the n-th failed mark; the last tier repeats. */
    public Duration backfillWait(int attempts) {
        return backfillBackoff.get(Math.min(Math.max(attempts, 1), backfillBackoff.size()) - 1);
    }
}
