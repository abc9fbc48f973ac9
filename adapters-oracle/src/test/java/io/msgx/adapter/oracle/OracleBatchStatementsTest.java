package io.msgx.adapter.oracle;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.testing.jdbc.StatementCountingDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch overrides of the ports' one-by-one defaults cost a fixed number of round trips, whatever the count: what
 * the contract suites cannot see (they check the answers, here the statements are counted).
 */
class OracleBatchStatementsTest {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    private final SettableClock clock = SettableClock.atExampleDay();
    private StatementCountingDataSource counted;
    private PipelineStore store;

    @BeforeEach
    void store() {
        counted = new StatementCountingDataSource(database.dataSource());
        store = OraclePipelineStore.create(counted, clock);
    }

    private void enqueue(long from, long to) {
        LongStream.rangeClosed(from, to).forEach(id -> store.queue().insertIfAbsent(id, clock.instant(), clock.instant()));
        counted.reset();
    }

    @Test
    void enqueueing_many_messages_is_one_batch_and_leaves_the_ones_there_alone() {
        enqueue(5, 5);
        var receivedAt = new LinkedHashMap<Long, Instant>();
        LongStream.rangeClosed(1, 300).forEach(id -> receivedAt.put(id, clock.instant().minusSeconds(id)));

        int inserted = store.inTransaction(tx -> tx.queue().insertAllIfAbsent(receivedAt, clock.instant()));

        assertThat(inserted).isEqualTo(299);
        assertThat(counted.statements()).isLessThanOrEqualTo(2);
        assertThat(store.queue().find(300)).map(ProcRecord::receivedAt).contains(clock.instant().minusSeconds(300));
    }

    @Test
    void a_batch_that_loses_an_enqueue_race_is_undone_and_enqueued_one_by_one() throws Exception {
        var threads = Executors.newSingleThreadExecutor();
        try (var other = database.dataSource().getConnection()) {
            other.setAutoCommit(false);
            try (var racing = other.createStatement()) {
                racing.executeUpdate("INSERT INTO PROC_STATE (MSG_ID, STATE, ATTEMPTS, ENQUEUED_AT, UPDATED_AT,"
                        + " BACKFILL_ATTEMPTS) VALUES (5, 'PENDING', 0, CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP),"
                        + " CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP), 0)");
            }
            var receivedAt = new LinkedHashMap<Long, Instant>();
            LongStream.rangeClosed(4, 6).forEach(id -> receivedAt.put(id, clock.instant()));
            var inserted = threads.submit(() -> store.inTransaction(tx -> {
                int count = tx.queue().insertAllIfAbsent(receivedAt, clock.instant());
                tx.queue().finish(6, MessageEnd.succeeded("applied"), clock.instant());
                return count;
            }));
            Thread.sleep(500);
            other.commit();

            assertThat(inserted.get(20, TimeUnit.SECONDS)).as("5 was enqueued by the other transaction").isEqualTo(2);
        } finally {
            threads.shutdownNow();
        }
        assertThat(store.queue().findAll(List.of(4L, 5L, 6L))).hasSize(3);
        assertThat(store.queue().find(6)).map(ProcRecord::status).as("the transaction went on")
                .contains(ProcStatus.SUCCEEDED);
    }

    @Test
    void a_pending_run_is_one_query_cut_at_the_first_failed_message() {
        enqueue(1, 300);
        store.queue().recordFailure(250, io.msgx.pipeline.record.ErrorClass.INTERNAL, "boom",
                clock.instant().plusSeconds(30), clock.instant());
        counted.reset();

        var run = store.queue().pendingRun(1000, 500);

        assertThat(counted.statements()).isEqualTo(1);
        assertThat(run).extracting(ProcRecord::msgId).containsExactlyElementsOf(LongStream.rangeClosed(1, 249).boxed().toList());
        assertThat(store.queue().pendingRun(1000, 20)).hasSize(20);
        assertThat(store.queue().pendingRun(100, 500)).hasSize(100);
    }

    @Test
    void finding_2500_records_is_one_query_per_1000_ids_in_the_order_asked() {
        enqueue(1, 2500);
        var asked = LongStream.rangeClosed(1, 2600).map(id -> 2601 - id).boxed().toList();

        var found = store.queue().findAll(asked);

        assertThat(counted.statements()).isEqualTo(3);
        assertThat(found).hasSize(2500);
        assertThat(found.keySet()).first().isEqualTo(2500L);
    }

    @Test
    void ending_and_confirming_many_messages_is_one_round_trip_each() {
        enqueue(1, 200);
        var endings = LongStream.rangeClosed(1, 200)
                .mapToObj(id -> new MessageQueue.Ending(id, MessageEnd.succeeded("applied"))).toList();

        int ended = store.inTransaction(tx -> tx.queue().finishAll(endings, clock.instant()));

        assertThat(ended).isEqualTo(200);
        assertThat(counted.statements()).isLessThanOrEqualTo(2);
        assertThat(store.queue().find(200)).map(ProcRecord::status).contains(ProcStatus.SUCCEEDED);
        counted.reset();

        assertThat(store.backfillMarks().backfillConfirmedAll(LongStream.rangeClosed(1, 200).boxed().toList(),
                clock.instant())).isEqualTo(200);
        assertThat(counted.statements()).isEqualTo(1);
    }

    @Test
    void appending_and_confirming_many_notifications_is_one_round_trip_each_in_order() {
        var events = IntStream.rangeClosed(1, 150).mapToObj(n -> new OutboxEvent(OutboxTarget.KAFKA_MSG,
                FlightId.of(String.valueOf(1000 + n % 7)), OutboxEvent.EventType.UPSERT, n, n, "{\"n\":" + n + "}",
                clock.instant())).toList();

        store.inTransaction(tx -> {
            tx.notifications().appendAll(events);
            return null;
        });

        assertThat(counted.statements()).isLessThanOrEqualTo(2);
        var rows = store.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 500);
        assertThat(rows).extracting(r -> r.event().msgId()).containsExactlyElementsOf(
                LongStream.rangeClosed(1, 150).boxed().toList());
        assertThat(rows).extracting(OutboxEntry::eventId).isSorted();
        counted.reset();

        assertThat(store.notifications().markAllSent(rows.stream().map(OutboxEntry::eventId).toList(), clock.instant()))
                .isEqualTo(150);
        assertThat(counted.statements()).isEqualTo(1);
    }

    @Test
    void appending_a_schedule_trail_of_many_entries_is_one_batch() {
        var entries = IntStream.rangeClosed(1, 40).mapToObj(n -> new ScheduleLog.Entry(n, "DNLD",
                LocalDate.of(2024, 3, 11), LocalDate.of(2024, 3, 12), n, n / 2, "APPLIED", clock.instant())).toList();
        counted.reset();

        store.scheduleLog().appendAll(entries);

        assertThat(counted.statements()).isEqualTo(1);
        assertThat(store.scheduleLog().entriesOf(40)).singleElement()
                .satisfies(e -> assertThat(e.flights()).isEqualTo(40));
    }
}
