package io.msgx.pipeline.delivery;

import io.msgx.pipeline.lifecycle.BatchedDeletes;
import io.msgx.pipeline.port.OutboxCleanup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Deletes delivered outbox rows once they are older than {@code msgx.pipeline.event-retention}, judged by
 * {@code SENT_AT} (and written before the same cutoff, which a row sent before it always is:
 * {@link OutboxCleanup#deleteSentBefore}). Undelivered rows and dead rows (the dead-letter record) are never deleted
 * here.
 * Works in batches so a long backlog never becomes one huge transaction.
 */
public final class SentEventCleanup {

    private static final Logger log = LoggerFactory.getLogger(SentEventCleanup.class);

    private final OutboxCleanup cleanup;
    private final Clock clock;
    private final Duration retention;
    private final int batch;

    public SentEventCleanup(OutboxCleanup cleanup, Clock clock, Duration retention, int batch) {
        this.cleanup = cleanup;
        this.clock = clock;
        this.retention = Objects.requireNonNull(retention, "retention");
        if (retention.isNegative()) {
            throw new IllegalArgumentException("msgx.pipeline.event-retention must not be negative, got " + retention);
        }
        if (batch < 1) {
            throw new IllegalArgumentException("the cleanup batch must be at least 1, got " + batch);
        }
        this.batch = batch;
    }

    /** Delete every delivered row older than the retention; returns how many. */
    public int runOnce() {
        var cutoff = clock.instant().minus(retention);
        int total = BatchedDeletes.untilDrained(batch, limit -> cleanup.deleteSentBefore(cutoff, limit));
        if (total > 0) {
            log.info("Deleted {} delivered events sent before {}", total, cutoff);
        }
        return total;
    }
}
