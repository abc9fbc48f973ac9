package io.msgx.runner.metrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.lifecycle.MarkSettlement;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class PipelineGaugesTest {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final H2TestStore store = H2TestStore.fresh();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PipelineGauges gauges = new PipelineGauges(store, registry, clock);

    @Test
    void with_nothing_enqueued_every_gauge_is_zero() {
        gauges.runOnce();

        for (var name : new String[]{"msgx.pipeline.backlog.oldest_unprocessed_seconds", "msgx.pipeline.backlog.pending",
                "msgx.pipeline.backlog.failed", "msgx.pipeline.dead", "msgx.backfill.owed",
                "msgx.backfill.abandoned", "msgx.backfill.abandoned_unreconciled", "msgx.pipeline.head.age_seconds"}) {
            assertThat(gauge(name)).as(name).isZero();
        }
    }

    @Test
    void the_oldest_unprocessed_age_comes_from_the_clock() {
        var received = clock.instant();
        store.queue().insertIfAbsent(1, received, clock.instant());
        clock.tick(Duration.ofSeconds(30));
        store.queue().insertIfAbsent(2, received, clock.instant());
        clock.tick(Duration.ofSeconds(45));

        gauges.runOnce();
        assertThat(gauge("msgx.pipeline.backlog.oldest_unprocessed_seconds")).isEqualTo(75.0);
        assertThat(gauge("msgx.pipeline.backlog.pending")).isEqualTo(2.0);

        clock.tick(Duration.ofMillis(2500));
        assertThat(gauge("msgx.pipeline.backlog.oldest_unprocessed_seconds"))
                .as("a gauge shows the last read, not the clock").isEqualTo(75.0);
        gauges.runOnce();
        assertThat(gauge("msgx.pipeline.backlog.oldest_unprocessed_seconds")).isEqualTo(77.5);

        store.queue().finish(1, MessageEnd.succeeded("done"), clock.instant());
        gauges.runOnce();
        assertThat(gauge("msgx.pipeline.backlog.oldest_unprocessed_seconds"))
                .as("the second message is now the oldest open one").isEqualTo(47.5);

        store.queue().finish(2, MessageEnd.succeeded("done"), clock.instant());
        gauges.runOnce();
        assertThat(gauge("msgx.pipeline.backlog.oldest_unprocessed_seconds")).isZero();
        assertThat(gauge("msgx.pipeline.backlog.pending")).isZero();
    }

    @Test
    void the_head_age_is_the_smallest_open_id_s_own_age_and_moves_on_when_it_ends() {
        var t = clock.instant();
        store.queue().insertIfAbsent(7, t, t);
        clock.tick(Duration.ofSeconds(20));
        store.queue().insertIfAbsent(3, t, clock.instant()); // a smaller ID enqueued later (the compatibility entry)
        clock.tick(Duration.ofSeconds(10));

        gauges.runOnce();
        assertThat(gauge("msgx.pipeline.head.age_seconds")).as("ID 3 is the head, open 10 s").isEqualTo(10.0);
        assertThat(gauge("msgx.pipeline.backlog.oldest_unprocessed_seconds")).as("ID 7 is the oldest").isEqualTo(30.0);

        store.queue().finish(3, MessageEnd.succeeded("applied"), clock.instant());
        gauges.runOnce();
        assertThat(gauge("msgx.pipeline.head.age_seconds")).isEqualTo(30.0);
    }

    @Test
    void counts_open_dead_and_backfill_rows() {
        var t = clock.instant();
        for (long id = 1; id <= 5; id++) {
            store.queue().insertIfAbsent(id, t, t);
        }
        store.queue().recordFailure(1, ErrorClass.INFRA, "db down", t.plusSeconds(60), t);
        store.queue().finish(2, MessageEnd.dead(ErrorClass.PROTOCOL, "bad RECS"), t);
        store.queue().finish(3, MessageEnd.succeeded("applied"), t);
        store.queue().finish(4, MessageEnd.skipped("ignored:LDM-*"), t);
        store.backfillMarks().backfillAbandoned(4, "MISSING_ROW", t);
        store.backfillMarks().backfillConfirmed(3, t);

        gauges.runOnce();

        assertThat(gauge("msgx.pipeline.backlog.pending")).isEqualTo(1.0);
        assertThat(gauge("msgx.pipeline.backlog.failed")).isEqualTo(1.0);
        assertThat(gauge("msgx.pipeline.dead")).isEqualTo(1.0);
        assertThat(gauge("msgx.backfill.owed")).as("the dead message's mark").isEqualTo(1.0);
        assertThat(gauge("msgx.backfill.abandoned")).isEqualTo(1.0);
        assertThat(gauge("msgx.backfill.abandoned_unreconciled")).isEqualTo(1.0);

        new MarkSettlement(store).reconcile(4, "ops", "purged by hand", t);
        gauges.runOnce();
        assertThat(gauge("msgx.backfill.abandoned")).isEqualTo(1.0);
        assertThat(gauge("msgx.backfill.abandoned_unreconciled")).isZero();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }
}
