package io.msgx.pipeline.delivery;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DispatcherTest {

    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final OutboxRows outbox = new OutboxRows(store, clock);
    private final ScriptedSink sink = new ScriptedSink();
    private final List<Long> backlog = new ArrayList<>();
    private final PipelineMetrics metrics = new PipelineMetrics() {
        @Override
        public void deliveryBacklog(long pending, long dead, Duration oldestPendingAge) {
            backlog.add(pending);
        }
    };
    private final RetryPolicy retry = new RetryPolicy(RetryPolicy.DELIVERY, 3,
            List.of(Duration.ofSeconds(1), Duration.ofSeconds(10)));
    /** A thread of its own for the confirmations, as the runner gives one: a backlog's rounds overlap (D-40). */
    private final ExecutorService confirmations = Executors.newSingleThreadExecutor();
    private Dispatcher dispatcher = dispatcher(500, 500);

    private Dispatcher dispatcher(int batch, int flushLimit) {
        return new Dispatcher(store, sink, new DispatchSettings(batch, flushLimit, retry), clock, metrics,
                confirmations);
    }

    @AfterEach
    void stopConfirmations() {
        confirmations.shutdownNow();
    }

    @Test
    void the_notifications_of_every_flid_go_out_in_one_round_in_their_order() {
        for (int version = 1; version <= 3; version++) {
            outbox.notify("A", version);
            outbox.notify("B", version);
            outbox.notify("C", version);
        }
        outbox.notify("A", 4);

        int rounds = runUntilIdle();

        assertThat(rounds).as("a deep backlog of one FLID needs no round per event").isEqualTo(1);
        assertThat(versionsSent("A")).containsExactly(1L, 2L, 3L, 4L);
        assertThat(versionsDelivered("A")).containsExactly(1L, 2L, 3L, 4L);
        assertThat(versionsDelivered("B")).containsExactly(1L, 2L, 3L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_delivered_notification_carries_its_event_id_first_and_is_marked_sent_with_the_time() {
        long id = outbox.notify("A", 1);
        dispatcher.dispatchOnce();
        assertThat(sink.delivered.get(0).value()).startsWith("{\"eventId\":" + id + ",\"flid\":\"A\"");
        var row = outbox.row(id);
        assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
        assertThat(row.sentAt()).isEqualTo(clock.instant());
    }

    @Test
    void a_failing_head_pauses_only_its_own_flid() {
        long a1 = outbox.notify("A", 1);
        long a2 = outbox.notify("A", 2);
        outbox.notify("B", 1);
        outbox.notify("B", 2);
        sink.failWhen(event -> event.key().equals("A"));

        runUntilIdle();

        assertThat(versionsDelivered("B")).containsExactly(1L, 2L);
        assertThat(versionsDelivered("A")).isEmpty();
        assertThat(versionsSent("A")).as("nothing of A is sent again before its head's retry time").containsExactly(1L, 2L);
        var head = outbox.row(a1);
        assertThat(head.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(head.attempts()).isEqualTo(1);
        assertThat(head.nextAttemptAt()).isEqualTo(clock.instant().plusSeconds(1));
        assertThat(head.lastError()).isEqualTo("refused by the test");
        assertThat(outbox.row(a2).attempts()).as("only the first failure of a FLID is recorded").isZero();
        assertThat(outbox.row(a2).nextAttemptAt()).isNull();

        sink.failWhen(event -> false);
        clock.tick(Duration.ofSeconds(1));
        runUntilIdle();
        assertThat(versionsDelivered("A")).containsExactly(1L, 2L);
        assertThat(sink.batches.get(sink.batches.size() - 2)).as("a FLID in trouble sends its head alone")
                .extracting(OutgoingEvent::key).containsExactly("A");
    }

    @Test
    void a_failure_inside_a_flids_run_holds_back_the_acknowledged_events_after_it_so_their_last_copies_come_in_order() {
        long a1 = outbox.notify("A", 1);
        long a2 = outbox.notify("A", 2);
        long a3 = outbox.notify("A", 3);
        sink.failWhen(event -> event.value().contains("\"stateVersion\":2"));

        dispatcher.dispatchOnce();

        assertThat(outbox.row(a1).status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
        assertThat(outbox.row(a2).attempts()).isEqualTo(1);
        assertThat(outbox.row(a3).status()).as("acknowledged, but behind a failure: sent again after it")
                .isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(outbox.row(a3).attempts()).isZero();

        sink.failWhen(event -> false);
        clock.tick(Duration.ofSeconds(1));
        runUntilIdle();

        assertThat(versionsDelivered("A")).containsExactly(1L, 3L, 2L, 3L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_notification_dies_after_the_last_attempt_and_its_flid_moves_on() {
        long a1 = outbox.notify("A", 1);
        outbox.notify("A", 2);
        sink.failWhen(event -> event.value().contains("\"stateVersion\":1"));

        dispatcher.dispatchOnce();
        clock.tick(Duration.ofSeconds(1));
        dispatcher.dispatchOnce();
        clock.tick(Duration.ofSeconds(10));
        var last = dispatcher.dispatchOnce();

        assertThat(last).isEqualTo(new DispatchResult(0, 0, 0, 1, Duration.ZERO));
        assertThat(outbox.row(a1).status()).isEqualTo(OutboxEntry.DeliveryStatus.DEAD);
        assertThat(outbox.row(a1).attempts()).isEqualTo(3);
        dispatcher.dispatchOnce();
        assertThat(versionsDelivered("A")).as("acknowledged behind the failing head in the first round, then again after it")
                .containsExactly(2L, 2L);
        assertThat(store.outboxQueries().deliveryBacklog().dead()).isEqualTo(1);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_projection_replaced_while_in_flight_stays_pending_and_the_newer_version_goes_next() {
        outbox.project("A", 1);
        sink.duringNextSend(() -> outbox.project("A", 2));

        var first = dispatcher.dispatchOnce();

        assertThat(first.superseded()).isEqualTo(1);
        var row = store.outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 10);
        assertThat(row).singleElement().satisfies(e -> assertThat(e.event().stateVersion()).isEqualTo(2));
        dispatcher.dispatchOnce();
        assertThat(sink.deliveredValuesOf("A")).containsExactly("{\"v\":1}", "{\"v\":2}");
        assertThat(store.outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 10)).isEmpty();
    }

    @Test
    void a_tombstone_goes_out_as_a_null_value() {
        store.inTransaction(tx -> tx.projections().upsertProjection(new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of("A"),
                OutboxEvent.EventType.TOMBSTONE, 3, 1, null, clock.instant())));
        dispatcher.dispatchOnce();
        assertThat(sink.delivered).singleElement().satisfies(e -> {
            assertThat(e.stream()).isEqualTo(OutgoingEvent.EventStream.SCHD);
            assertThat(e.value()).isNull();
        });
    }

    @Test
    void the_claim_is_frozen_events_committed_during_a_round_wait_for_the_next() {
        outbox.notify("A", 1);
        sink.duringNextSend(() -> outbox.notify("B", 1));
        dispatcher.dispatchOnce();
        assertThat(sink.batches.get(0)).extracting(OutgoingEvent::key).containsExactly("A");
        dispatcher.dispatchOnce();
        assertThat(sink.batches.get(1)).extracting(OutgoingEvent::key).containsExactly("B");
    }

    @Test
    void batch_sizes_bound_each_round() {
        for (int i = 0; i < 5; i++) {
            outbox.notify("N" + i, 1);
            outbox.project("P" + i, 1);
        }
        dispatcher = dispatcher(2, 3);
        dispatcher.dispatchOnce();
        assertThat(sink.batches.get(0)).extracting(OutgoingEvent::stream).containsExactly(
                OutgoingEvent.EventStream.MSG, OutgoingEvent.EventStream.MSG,
                OutgoingEvent.EventStream.SCHD, OutgoingEvent.EventStream.SCHD, OutgoingEvent.EventStream.SCHD);
    }

    @Test
    void a_sink_that_fails_as_a_whole_marks_nothing_sent_and_uses_no_attempt() {
        long id = outbox.notify("A", 1);
        outbox.project("A", 1);
        sink.crashWith(new IllegalStateException("producer closed"));
        var result = dispatcher.dispatchOnce();
        assertThat(result.outage()).as("a sink failing as a whole is an outage (D-66)").isTrue();
        assertThat(result.failed()).isZero();
        assertThat(outbox.row(id).status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(outbox.row(id).attempts()).isZero();
        assertThat(outbox.row(id).nextAttemptAt()).isNull();
    }

    @Test
    void once_caught_up_the_backlog_is_reported_at_most_once_a_second_however_many_rounds_run() {
        outbox.notify("A", 1);
        dispatcher = dispatcher(2, 500);
        dispatcher.dispatchOnce();
        outbox.notify("A", 2);
        dispatcher.dispatchOnce();
        assertThat(backlog).as("the second round within the second reports nothing").containsExactly(0L);

        outbox.notify("A", 3);
        outbox.notify("A", 4);
        outbox.notify("A", 5);
        clock.tick(Duration.ofSeconds(1));
        dispatcher.dispatchOnce();
        assertThat(backlog).as("a full round: behind, and the last report is only a second old").containsExactly(0L);
        dispatcher.dispatchOnce();
        assertThat(backlog).as("caught up again").containsExactly(0L, 0L);
    }

    @Test
    void a_backlog_run_that_ends_on_an_empty_claim_is_caught_up() {
        outbox.notify("A", 1);
        dispatcher = dispatcher(2, 500);
        dispatcher.dispatchOnce();
        outbox.notify("A", 2);
        outbox.notify("A", 3);
        clock.tick(Duration.ofSeconds(1));

        dispatcher.dispatchBacklog();

        assertThat(sink.batches).extracting(List::size).as("a full round, then nothing").containsExactly(1, 2);
        assertThat(backlog).as("caught up: reported a second after the last report").containsExactly(0L, 0L);
    }

    @Test
    void while_a_backlog_runs_it_is_reported_at_most_every_ten_seconds() {
        for (int version = 1; version <= 4; version++) {
            outbox.notify("A", version);
        }
        dispatcher = dispatcher(1, 500);
        dispatcher.dispatchOnce();
        clock.tick(Duration.ofSeconds(9));
        dispatcher.dispatchOnce();
        assertThat(backlog).as("counting a large backlog costs more than a round").containsExactly(3L);

        clock.tick(Duration.ofSeconds(1));
        dispatcher.dispatchOnce();
        assertThat(backlog).containsExactly(3L, 1L);
    }

    @Test
    void cleanup_deletes_only_delivered_rows_older_than_the_retention() {
        long old = outbox.notify("A", 1);
        dispatcher.dispatchOnce();
        clock.tick(Duration.ofDays(3));
        long recent = outbox.notify("B", 1);
        dispatcher.dispatchOnce();
        long dead = outbox.notify("C", 1);
        store.deadLetters().recordDeliveryFailure(dead, "x", clock.instant(), true, clock.instant());
        long waiting = outbox.notify("D", 1);
        clock.tick(Duration.ofHours(1));

        int deleted = new SentEventCleanup(store.outboxCleanup(), clock, Duration.ofDays(2), 1).runOnce();

        assertThat(deleted).isEqualTo(1);
        var left = store.allEvents().stream().map(OutboxEntry::eventId).toList();
        assertThat(left).doesNotContain(old).contains(recent, dead, waiting);
    }

    // --- rounds back to back, each confirmed while the next is claimed and sent (D-40) ---

    @Test
    void a_backlog_goes_out_in_full_rounds_back_to_back_every_event_once_in_order_and_confirmed_on_return() {
        for (int version = 1; version <= 5; version++) {
            outbox.notify("A", version);
            outbox.notify("B", version);
        }
        for (int n = 1; n <= 5; n++) {
            outbox.project("P" + n, 1);
        }
        dispatcher = dispatcher(3, 2);

        var result = dispatcher.dispatchBacklog();

        assertThat(result.delivered()).isEqualTo(15);
        assertThat(sink.batches).extracting(List::size).as("full rounds, then the one that was not")
                .containsExactly(5, 5, 4, 1);
        assertThat(versionsSent("A")).as("each once, in order").containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(versionsSent("B")).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(sink.batches.stream().flatMap(List::stream)
                .filter(e -> e.stream() == OutgoingEvent.EventStream.SCHD).map(OutgoingEvent::key))
                .as("a projection in flight is not claimed again").containsExactly("P1", "P2", "P3", "P4", "P5");
        assertThat(store.allEvents()).allMatch(e -> e.status() == OutboxEntry.DeliveryStatus.SENT);
    }

    @Test
    void a_failure_ends_the_run_so_nothing_later_of_its_flid_overtakes_the_retry() {
        for (int version = 1; version <= 4; version++) {
            outbox.notify("A", version);
        }
        outbox.notify("B", 1);
        outbox.notify("B", 2);
        dispatcher = dispatcher(2, 500);
        sink.failWhen(event -> event.value().contains("\"flid\":\"A\",\"stateVersion\":2"));

        var result = dispatcher.dispatchBacklog();

        assertThat(result.failed()).isEqualTo(1);
        assertThat(sink.batches).as("the round with the failure is the last").hasSize(1);
        assertThat(versionsSent("A")).containsExactly(1L, 2L);

        sink.failWhen(event -> false);
        clock.tick(Duration.ofSeconds(1));
        dispatcher.dispatchBacklog();
        dispatcher.dispatchBacklog();
        assertThat(versionsDelivered("A")).containsExactly(1L, 2L, 3L, 4L);
        assertThat(versionsDelivered("B")).containsExactly(1L, 2L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_round_retrying_a_paused_head_ends_the_run_so_the_flids_later_notifications_keep_their_order() {
        outbox.notify("X", 1);
        sink.failWhen(event -> event.key().equals("X"));
        dispatcher = dispatcher(2, 500);
        dispatcher.dispatchOnce();                // X v1 fails: X pauses until its retry
        sink.failWhen(event -> false);
        outbox.notify("X", 2);                           // held back while X is paused
        for (int n = 1; n <= 3; n++) {
            outbox.notify("A" + n, 1);
        }
        outbox.notify("X", 3);                           // above the cursor of the round that retries X v1
        outbox.notify("A4", 1);
        clock.tick(Duration.ofSeconds(1));

        for (int run = 0; run < 5 && !dispatcher.dispatchBacklog().idle(); run++) {
            // until everything is out
        }

        assertThat(versionsDelivered("X")).containsExactly(1L, 2L, 3L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_confirmation_that_fails_fails_the_run_and_its_events_go_again() {
        for (int version = 1; version <= 4; version++) {
            outbox.notify("A", version);
        }
        var failing = new AtomicBoolean(true);
        var notifications = intercepting(Notifications.class, store.notifications(), "markAllSent", () -> failing.getAndSet(false)
                ? new StoreUnavailableException("injected: the store went away while confirming", null) : null);
        var flaky = intercepting(PipelineStore.class, store, "notifications", null, notifications);
        dispatcher = new Dispatcher(flaky, sink, new DispatchSettings(2, 500, retry), clock, metrics);

        assertThatThrownBy(dispatcher::dispatchBacklog).isInstanceOf(StoreUnavailableException.class);
        assertThat(sink.batches).as("the second round was sent while the first was being confirmed").hasSize(2);

        dispatcher.dispatchBacklog();
        assertThat(versionsDelivered("A")).as("the unconfirmed round went again, in order")
                .containsExactly(1L, 2L, 3L, 4L, 1L, 2L, 3L, 4L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_confirmation_the_database_rolls_back_to_break_a_deadlock_is_tried_again_in_place() {
        for (int version = 1; version <= 4; version++) {
            outbox.notify("A", version);
        }
        var conflicts = new AtomicInteger(RoundConfirmation.CONFLICT_TRIES - 1);
        var notifications = intercepting(Notifications.class, store.notifications(), "markAllSent", () -> conflicts.getAndDecrement() > 0
                ? new StoreConflictException("injected: chosen as the victim of a deadlock", null) : null);
        var flaky = intercepting(PipelineStore.class, store, "notifications", null, notifications);
        dispatcher = new Dispatcher(flaky, sink, new DispatchSettings(2, 500, retry), clock, metrics);

        var result = dispatcher.dispatchBacklog();

        assertThat(result.delivered()).isEqualTo(4);
        assertThat(versionsDelivered("A")).as("confirmed on the last try: nothing sent twice")
                .containsExactly(1L, 2L, 3L, 4L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void a_confirmation_that_keeps_losing_conflicts_fails_the_run_and_its_events_go_again() {
        long id = outbox.notify("A", 1);
        var tries = new AtomicInteger();
        var notifications = intercepting(Notifications.class, store.notifications(), "markAllSent", () -> {
            tries.incrementAndGet();
            return new StoreConflictException("injected: chosen as the victim of a deadlock", null);
        });
        var flaky = intercepting(PipelineStore.class, store, "notifications", null, notifications);
        dispatcher = new Dispatcher(flaky, sink, new DispatchSettings(2, 500, retry), clock, metrics);

        assertThatThrownBy(dispatcher::dispatchBacklog).isInstanceOf(StoreConflictException.class);
        assertThat(tries).as("tried, then given up").hasValue(RoundConfirmation.CONFLICT_TRIES);
        assertThat(outbox.row(id).status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(outbox.row(id).attempts()).as("a conflict is no delivery failure").isZero();
    }

    @Test
    void a_run_claims_after_what_earlier_runs_settled_not_from_the_first_pending_event() {
        outbox.notify("A", 1);
        long a2 = outbox.notify("A", 2);
        var claimedAfter = new ArrayList<Long>();
        dispatcher = dispatcherRecordingClaims(claimedAfter, false);
        dispatcher.dispatchBacklog();
        outbox.notify("B", 1);
        clock.tick(Duration.ofSeconds(5));

        dispatcher.dispatchBacklog();

        assertThat(claimedAfter).as("the first run reads from the start, the second after A's last event")
                .containsExactly(0L, a2);
        assertThat(versionsDelivered("B")).containsExactly(1L);
    }

    @Test
    void a_run_reads_from_the_first_pending_event_again_once_a_minute() {
        outbox.notify("A", 1);
        var claimedAfter = new ArrayList<Long>();
        dispatcher = dispatcherRecordingClaims(claimedAfter, false);
        dispatcher.dispatchBacklog();
        clock.tick(Dispatcher.FULL_SCAN_PERIOD);

        dispatcher.dispatchBacklog();

        assertThat(claimedAfter).containsExactly(0L, 0L);
    }

    @Test
    void a_store_that_cannot_find_the_due_retries_has_every_run_read_from_the_first_pending_event() {
        outbox.notify("A", 1);
        var claimedAfter = new ArrayList<Long>();
        dispatcher = dispatcherRecordingClaims(claimedAfter, true);
        dispatcher.dispatchBacklog();
        outbox.notify("A", 2);
        clock.tick(Duration.ofSeconds(5));

        dispatcher.dispatchBacklog();

        assertThat(claimedAfter).containsExactly(0L, 0L);
        assertThat(versionsDelivered("A")).containsExactly(1L, 2L);
    }

    @Test
    void a_retry_due_below_the_settled_mark_goes_out_and_the_events_held_back_behind_it_follow_in_order() {
        long a1 = outbox.notify("A", 1);
        outbox.notify("A", 2);
        outbox.notify("B", 1);
        sink.failWhen(event -> event.key().equals("A") && event.value().contains("\"stateVersion\":1"));
        var claimedAfter = new ArrayList<Long>();
        dispatcher = dispatcherRecordingClaims(claimedAfter, false);
        dispatcher.dispatchBacklog();
        outbox.notify("B", 2);
        dispatcher.dispatchBacklog(); // settles past A's held-back notification
        sink.failWhen(event -> false);
        clock.tick(Duration.ofSeconds(1));

        dispatcher.dispatchBacklog(); // the retry of A1, alone
        dispatcher.dispatchBacklog(); // A2, released by A1's confirmation

        assertThat(claimedAfter).as("from the start; after B1; just before the due retry; from the released head")
                .containsExactly(0L, notificationIdOf("B", 1), a1 - 1, a1);
        assertThat(versionsDelivered("A")).as("A2, acknowledged behind A1's failure, goes again after A1")
                .containsExactly(2L, 1L, 2L);
        assertThat(store.outboxQueries().deliveryBacklog().pending()).isZero();
    }

    /**
     * A dispatcher (rounds of up to 500) on the store, with its outbox recording the {@code afterEventId} of every
     * notification claim; with {@code cannotFindDueRetries}, its {@code dueRetries} answers as a store that cannot
     * tell.
     */
    private Dispatcher dispatcherRecordingClaims(List<Long> claimedAfter, boolean cannotFindDueRetries) {
        var real = store.notifications();
        var recording = (Notifications) Proxy.newProxyInstance(Notifications.class.getClassLoader(),
                new Class<?>[] {Notifications.class}, (proxy, called, args) -> {
                    if (called.getName().equals("dueNotifications") && args.length == 3) {
                        claimedAfter.add((Long) args[2]);
                    }
                    try {
                        return called.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        var queries = cannotFindDueRetries
                ? intercepting(OutboxQueries.class, store.outboxQueries(), "dueRetries", null, Optional.empty())
                : store.outboxQueries();
        var flaky = intercepting(PipelineStore.class, intercepting(PipelineStore.class, store, "notifications", null,
                recording), "outboxQueries", null, queries);
        return new Dispatcher(flaky, sink, new DispatchSettings(500, 500, retry), clock, metrics, confirmations);
    }

    private long notificationIdOf(String flid, long version) {
        return store.allEvents().stream()
                .filter(e -> e.event().target() == OutboxTarget.KAFKA_MSG && e.event().partitionKey().value().equals(flid)
                        && e.event().stateVersion() == version)
                .mapToLong(OutboxEntry::eventId).findFirst().orElseThrow();
    }

    /**
     * {@code target}, but {@code method} throws what {@code failure} gives (nothing when it gives {@code null}), or
     * answers {@code answer}.
     */
    @SuppressWarnings("unchecked")
    private static <T> T intercepting(Class<T> type, T target, String method, Supplier<RuntimeException> failure,
                                      Object... answer) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, called, args) -> {
            if (called.getName().equals(method)) {
                if (answer.length > 0) {
                    return answer[0];
                }
                var injected = failure.get();
                if (injected != null) {
                    throw injected;
                }
            }
            try {
                return called.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private int runUntilIdle() {
        for (int round = 0; round < 100; round++) {
            if (dispatcher.dispatchOnce().idle()) {
                return round;
            }
        }
        throw new AssertionError("the dispatcher did not become idle");
    }

    private List<Long> versionsDelivered(String flid) {
        return sink.deliveredValuesOf(flid).stream().map(DispatcherTest::stateVersion).toList();
    }

    private List<Long> versionsSent(String flid) {
        return sink.batches.stream().flatMap(List::stream).filter(e -> e.key().equals(flid)).map(OutgoingEvent::value)
                .map(DispatcherTest::stateVersion).toList();
    }

    private static long stateVersion(String json) {
        return Long.parseLong(json.replaceAll(".*\"stateVersion\":(\\d+).*", "$1"));
    }
}
