package io.msgx.runner.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.pipeline.port.PipelineStore;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The processing and backfill backlog as gauges, read from the store by {@link #runOnce()} (scheduled by the
 * runner's {@code JobRunner}). Each gauge shows the value of the last successful read; a read that fails
 * (the store unreachable) throws and leaves every gauge as it was, so no gauge mixes two reads.
 */
public final class PipelineGauges {

    public static final String OLDEST_UNPROCESSED_SECONDS = "msgx.pipeline.backlog.oldest_unprocessed_seconds";
    public static final String HEAD_AGE_SECONDS = "msgx.pipeline.head.age_seconds";
    public static final String BACKLOG_PENDING = "msgx.pipeline.backlog.pending";
    public static final String BACKLOG_FAILED = "msgx.pipeline.backlog.failed";
    public static final String DEAD = "msgx.pipeline.dead";
    public static final String BACKFILL_OWED = "msgx.backfill.owed";
    public static final String BACKFILL_ABANDONED = "msgx.backfill.abandoned";
    public static final String BACKFILL_ABANDONED_UNRECONCILED = "msgx.backfill.abandoned_unreconciled";

    private final PipelineStore store;
    private final Clock clock;

    private final AtomicLong oldestUnprocessedMillis = new AtomicLong();
    private final AtomicLong headAgeMillis = new AtomicLong();
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dead = new AtomicLong();
    private final AtomicLong owed = new AtomicLong();
    private final AtomicLong abandoned = new AtomicLong();
    private final AtomicLong abandonedUnreconciled = new AtomicLong();

    public PipelineGauges(PipelineStore store, MeterRegistry registry, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(registry, "registry");
        Gauge.builder(OLDEST_UNPROCESSED_SECONDS, oldestUnprocessedMillis, millis -> millis.get() / 1000.0)
                .description("Time since the oldest open (PENDING or FAILED) message was enqueued; zero when none")
                .baseUnit("seconds").strongReference(true).register(registry);
        Gauge.builder(HEAD_AGE_SECONDS, headAgeMillis, millis -> millis.get() / 1000.0)
                .description("Time since the FIFO head (the smallest open message) was enqueued; zero when none. Unlike"
                        + " the oldest open message, this is the one everything behind waits for")
                .baseUnit("seconds").strongReference(true).register(registry);
        register(registry, BACKLOG_PENDING, pending, "Messages waiting to be processed (PENDING)");
        register(registry, BACKLOG_FAILED, failed, "Messages whose last attempt failed and will be retried (FAILED)");
        register(registry, DEAD, dead, "Messages that died (DEAD), not yet archived");
        register(registry, BACKFILL_OWED, owed, "Processed marks owed to the shared mailbox, not abandoned");
        register(registry, BACKFILL_ABANDONED, abandoned, "Processed marks abandoned (not retried automatically)");
        register(registry, BACKFILL_ABANDONED_UNRECONCILED, abandonedUnreconciled,
                "Abandoned processed marks no operator has reconciled yet");
    }

    /** Read both backlogs and the FIFO head from the store and publish them. Throws when the store cannot be read. */
    public void runOnce() {
        var backlog = store.messageQueries().backlog();
        var backfill = store.backfillMarks().backfillBacklog();
        var head = store.queue().head();
        var now = clock.instant();

        var oldest = backlog.oldestOpenEnqueuedAt();
        long ageMillis = oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toMillis());
        oldestUnprocessedMillis.set(ageMillis);
        headAgeMillis.set(head.map(h -> Math.max(0, Duration.between(h.enqueuedAt(), now).toMillis())).orElse(0L));
        pending.set(backlog.pending());
        failed.set(backlog.failed());
        dead.set(backlog.dead());
        owed.set(backfill.owed());
        abandoned.set(backfill.abandoned());
        abandonedUnreconciled.set(backfill.abandonedUnreconciled());
    }

    private static void register(MeterRegistry registry, String name, AtomicLong value, String description) {
        Gauge.builder(name, value, AtomicLong::get)
                .description(description)
                .baseUnit("messages").strongReference(true).register(registry);
    }
}
