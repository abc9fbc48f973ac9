package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.store.OutboxContract;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.pipeline.store.OutboxEvent;
import io.msgx.pipeline.store.OutboxTarget;
import io.msgx.pipeline.store.PipelineStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Outbox contract on PostgreSQL, each test in a fresh schema; and the plans of its confirmations when the
 * statistics lag behind the outbox.
 */
class PgOutboxTest extends OutboxContract {

    private static final int ROWS = 3_000;

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    private PgOutbox outbox() {
        return (PgOutbox) store().outbox();
    }

    private PgProbe probe() {
        return new PgProbe(database);
    }

    private OutboxEvent event(OutboxTarget target, int flight) {
        return new OutboxEvent(target, FlightId.of(String.valueOf(1000 + flight)), OutboxEvent.EventType.UPSERT, 1,
                100 + flight, "{}", clock.instant());
    }

    /**
     * Statistics taken while nothing was pending, then every row pending again — what a planner sees when a backlog
     * piles up faster than {@code ANALYZE} follows.
     */
    private void everyRowPendingBehindTheStatistics() {
        probe().statisticsTakenNow("msg_event");
        probe().sql().execute("UPDATE msg_event SET status = 'PENDING', sent_at = NULL");
    }

    @Test
    void theCleanUpDeletesByKeyEvenWhenTheStatisticsSayNothingWasSent() {
        store().inTransaction(tx -> {
            tx.outbox().appendAll(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_MSG, n)).toList());
            return null;
        });
        probe().statisticsTakenNow("msg_event");
        probe().sql().execute("UPDATE msg_event SET status = 'SENT', sent_at = ?::timestamptz",
                clock.instant().minus(Duration.ofDays(10)).atOffset(ZoneOffset.UTC).toString());

        var cleanup = outbox().deletingSentBefore(clock.instant().plusSeconds(1), 1_000);

        assertThat(probe().plan(cleanup)).as("IX_MSG_EVENT_SENT finds the batch, and only the batch")
                .containsOnlyOnce("ix_msg_event_sent");
        assertThat(cleanup.execute()).isEqualTo(1_000);
    }


    @Test
    void notificationsAreConfirmedByKeyEvenWhenTheStatisticsSayNothingIsPending() {
        store().inTransaction(tx -> {
            tx.outbox().appendAll(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_MSG, n)).toList());
            return null;
        });
        var ids = outbox().pending(OutboxTarget.KAFKA_MSG, ROWS).stream().map(OutboxEntry::eventId).toList();
        assertThat(outbox().markAllSent(ids, clock.instant())).isEqualTo(ROWS);
        everyRowPendingBehindTheStatistics();
        var some = ids.subList(0, 1_000).toArray(Long[]::new);

        var confirmation = outbox().confirmingNotifications(some, clock.instant());

        // by key, or a scan hashed against the keys once: either is linear; walking the pending rows is not
        assertThat(probe().plan(confirmation)).doesNotContainIgnoringCase("ix_msg_event_dispatch")
                .containsPattern("(?i)pk_msg_event|hash join");
        assertThat(confirmation.execute()).isEqualTo(1_000);
    }

    @Test
    void projectionsAreConfirmedByFlidEvenWhenTheStatisticsSayNothingIsPending() {
        store().inTransaction(tx -> {
            tx.outbox().upsertProjections(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_SCHD, n))
                    .toList());
            return null;
        });
        var versions = new LinkedHashMap<FlightId, Long>();
        outbox().pending(OutboxTarget.KAFKA_SCHD, ROWS).forEach(e -> versions.put(e.event().partitionKey(), 1L));
        assertThat(outbox().markProjectionsSent(versions, clock.instant())).hasSize(ROWS);
        everyRowPendingBehindTheStatistics();
        var some = new LinkedHashMap<FlightId, Long>();
        versions.keySet().stream().limit(1_000).forEach(flid -> some.put(flid, 1L));

        var confirmation = outbox().confirmingProjections(some, clock.instant());

        assertThat(probe().plan(confirmation)).doesNotContainIgnoringCase("ix_msg_event_dispatch")
                .containsPattern("(?i)ux_msg_event_schd|hash join");
        assertThat(confirmation.fetch()).hasSize(1_000);
        assertThat(outbox().pending(OutboxTarget.KAFKA_SCHD, ROWS)).hasSize(ROWS - 1_000);
    }
}
