package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.store.OutboxContract;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox contract on PostgreSQL, each test in a fresh schema; and the plans of its confirmations when the
 * statistics lag behind the outbox.
 */
class PgOutboxTest extends OutboxContract {

    private static final int ROWS = 3_000;

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    private PgOutbox outbox() {
        return (PgOutbox) store().notifications();
    }

    private PgProbe probe() {
        return database.probe();
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
    void theCleanUpWalksThePrimaryKeyEvenWhenTheStatisticsSayNothingWasSent() {
        appendedNotifications();
        probe().statisticsTakenNow("msg_event");
        probe().sql().execute("UPDATE msg_event SET status = 'SENT', sent_at = created_at");
        var cutoff = clock.instant().plusSeconds(1);

        assertThat(probe().plan(outbox().walkingFrom(Long.MIN_VALUE, 1_000)))
                .as("the primary key in order, read only as far as the window")
                .contains("pk_msg_event").doesNotContainIgnoringCase("sort");
        assertThat(outbox().deleteSentBefore(cutoff, 1_000)).isEqualTo(1_000);
        assertThat(outbox().deleteSentBefore(cutoff, ROWS)).isEqualTo(ROWS - 1_000);
        assertThat(probe().sql().fetchCount(DSL.table("msg_event"))).isZero();
    }

    /** {@code ROWS} notifications appended; their {@code EVENT_ID}s in order. */
    private List<Long> appendedNotifications() {
        store().inTransaction(tx -> {
            tx.notifications().appendAll(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_MSG, n)).toList());
            return null;
        });
        return outbox().pending(OutboxTarget.KAFKA_MSG, ROWS).stream().map(OutboxEntry::eventId).toList();
    }

    /** {@link #appendedNotifications}, confirmed, then pending again behind statistics that say they are sent. */
    private List<Long> notificationsPendingBehindTheStatistics() {
        var ids = appendedNotifications();
        assertThat(outbox().markAllSent(ids, clock.instant())).isEqualTo(ROWS);
        everyRowPendingBehindTheStatistics();
        return ids;
    }

    @Test
    void notificationsAreConfirmedByKeyEvenWhenTheStatisticsSayNothingIsPending() {
        var ids = notificationsPendingBehindTheStatistics();
        var some = ids.subList(0, 1_000).toArray(Long[]::new);

        var confirmation = outbox().confirmingNotifications(some, clock.instant());

        // by key, or a scan hashed against the keys once: either is linear; walking the pending rows is not
        assertThat(probe().plan(confirmation)).doesNotContainIgnoringCase("ix_msg_event_dispatch")
                .containsPattern("(?i)pk_msg_event|hash join");
        assertThat(confirmation.execute()).isEqualTo(1_000);
    }

    @Test
    void notificationsWithOthersBetweenThemAreConfirmedAsARangeLessItsHolesEvenWhenTheStatisticsSayNothingIsPending() {
        var ids = notificationsPendingBehindTheStatistics();
        // two of every three: the third stands for a held-back FLID's notification, or a projection's row
        var delivered = IntStream.range(0, 1_500).filter(n -> n % 3 != 2).mapToObj(ids::get).toArray(Long[]::new);

        var confirmation = outbox().confirmingNotifications(delivered, clock.instant());

        assertThat(probe().plan(confirmation)).as("one scan of the primary key's range, the holes hashed once")
                .contains("pk_msg_event").doesNotContainIgnoringCase("ix_msg_event_dispatch")
                .containsIgnoringCase("hashed SubPlan").doesNotContainIgnoringCase("nested loop");
        assertThat(confirmation.execute()).isEqualTo(1_000);
        assertThat(outbox().pending(OutboxTarget.KAFKA_MSG, ROWS)).map(OutboxEntry::eventId)
                .as("the holes, and every row above the range, stay pending")
                .containsExactlyElementsOf(IntStream.range(0, ROWS).filter(n -> n >= 1_500 || n % 3 == 2)
                        .mapToObj(ids::get).toList());
    }

    @Test
    void notificationsFarApartAreConfirmedByKey() {
        var ids = appendedNotifications();
        var everyTenth = IntStream.range(0, ROWS).filter(n -> n % 10 == 0).mapToObj(ids::get).toArray(Long[]::new);

        var confirmation = outbox().confirmingNotifications(everyTenth, clock.instant());

        assertThat(probe().plan(confirmation)).as("more holes than keys: the keys themselves")
                .doesNotContainIgnoringCase("hashed SubPlan");
        assertThat(confirmation.execute()).isEqualTo(ROWS / 10);
        assertThat(outbox().pending(OutboxTarget.KAFKA_MSG, ROWS)).hasSize(ROWS - ROWS / 10)
                .noneMatch(entry -> List.of(everyTenth).contains(entry.eventId()));
    }

    @Test
    void projectionsAreConfirmedByFlidEvenWhenTheStatisticsSayNothingIsPending() {
        writeProjections(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_SCHD, n)).toList());
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

    @Test
    void theDueRetriesAreFoundAmongTheRetryingRowsOnlyEvenWhenTheStatisticsSayNothingIsPending() {
        appendedNotifications();
        writeProjections(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_SCHD, n)).toList());
        probe().sql().execute("UPDATE msg_event SET status = 'SENT', sent_at = now()");
        everyRowPendingBehindTheStatistics();
        var notifications = outbox().pending(OutboxTarget.KAFKA_MSG, ROWS);
        var projections = outbox().pending(OutboxTarget.KAFKA_SCHD, ROWS);
        long notification = notifications.get(ROWS / 2).eventId();
        long projection = projections.get(ROWS / 3).eventId();
        for (long eventId : List.of(notification, notifications.get(ROWS - 1).eventId(), projection)) {
            assertThat(outbox().recordDeliveryFailure(eventId, "broker unreachable", clock.instant(), false,
                    clock.instant())).isTrue();
        }

        var finding = outbox().findingDueRetries(clock.instant());

        assertThat(probe().plan(finding)).as("through IX_MSG_EVENT_RETRY_DUE, never along every pending row")
                .contains("ix_msg_event_retry_due").doesNotContainIgnoringCase("ix_msg_event_dispatch")
                .doesNotContainIgnoringCase("seq scan");
        assertThat(outbox().dueRetries(clock.instant()))
                .contains(new OutboxQueries.DueRetries(notification, projection));
    }

    /**
     * The pump upserts a group's projections in FLID order while the dispatcher confirms the same FLIDs. The
     * dispatcher's session is made to join by hashing the sent pairs (as the planner does when its statistics see
     * many projections), and FLID 1001's row lies before 1000's in the table: a plain {@code UPDATE ... FROM} locks
     * 1001 first, then waits for 1000, which the pump holds while it waits for 1001 — a deadlock, and one of the two
     * is rolled back. Locked in the order given, the confirmation waits for 1000 holding nothing and the pump goes
     * through (D-43).
     */
    @Test
    void aConfirmationLocksProjectionsInFlidOrderSoThePumpNeverDeadlocksWithIt() throws Exception {
        var first = FlightId.of("1000");
        var second = FlightId.of("1001");
        writeProjections(List.of(projection(second, 1)));
        writeProjections(IntStream.range(0, ROWS).mapToObj(n -> event(OutboxTarget.KAFKA_SCHD, 2_000 + n)).toList());
        writeProjections(List.of(projection(first, 1)));
        var sentVersions = new TreeMap<FlightId, Long>(Map.of(first, 1L, second, 1L));

        var executor = Executors.newFixedThreadPool(2);
        var application = "msgx-test-dispatcher-" + database.schema();
        try (var hashJoining = PgTestDatabase.pool(database.schema(), Map.of("ApplicationName", application,
                "options", "-c enable_nestloop=off -c enable_mergejoin=off"))) {
            var dispatcher = (PgOutbox) PgPipelineStore.create(hashJoining, clock).notifications();
            assertThat(DSL.using(hashJoining, SQLDialect.POSTGRES).explain(dispatcher.confirmingProjections(
                    sentVersions, clock.instant())).plan()).as("the dispatcher's session joins by hashing")
                    .containsIgnoringCase("hash join");
            var firstHeld = new CountDownLatch(1);
            Future<?> pump = executor.submit(() -> store().inTransaction(tx -> {
                tx.projections().upsertProjections(List.of(projection(first, 2)));
                firstHeld.countDown();
                untilWaitingForALock(application);
                tx.projections().upsertProjections(List.of(projection(second, 2)));
                return null;
            }));
            assertThat(firstHeld.await(10, TimeUnit.SECONDS)).isTrue();
            Future<Set<FlightId>> confirmation = executor.submit(() ->
                    dispatcher.markProjectionsSent(sentVersions, clock.instant()));

            assertThat(pump).succeedsWithin(Duration.ofSeconds(20));
            assertThat(confirmation).as("nothing confirmed: both rows hold version 2 now, which was not sent")
                    .succeedsWithin(Duration.ofSeconds(20)).isEqualTo(Set.of());
        } finally {
            executor.shutdownNow();
        }
        assertThat(outbox().pending(OutboxTarget.KAFKA_SCHD, ROWS + 2).stream()
                .filter(entry -> entry.event().partitionKey().equals(first) || entry.event().partitionKey().equals(second))
                .map(entry -> entry.event().stateVersion())).containsExactly(2L, 2L);
    }

    private OutboxEvent projection(FlightId flid, long stateVersion) {
        return new OutboxEvent(OutboxTarget.KAFKA_SCHD, flid, OutboxEvent.EventType.UPSERT, stateVersion, 100, "{}",
                clock.instant());
    }

    private void writeProjections(List<OutboxEvent> projections) {
        store().inTransaction(tx -> {
            tx.projections().upsertProjections(projections);
            return null;
        });
    }

    /** Until the session of {@code application} waits for a lock; fails after 10 s. */
    private void untilWaitingForALock(String application) {
        var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (((Number) probe().sql().fetchValue("SELECT count(*) FROM pg_stat_activity WHERE application_name = ? "
                + "AND wait_event_type = 'Lock'", application)).intValue() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the confirmation never waited for the pump's lock");
            }
            Thread.onSpinWait();
        }
    }
}
