package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.record.DeadEvent;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ReferenceEvent;
import io.msgx.pipeline.record.ReferenceOutboxEntry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the outbox ports ({@link Notifications}, {@link Projections}, {@link ReferenceNotifications},
 * {@link DeadLetters}, {@link OutboxCleanup}, {@link OutboxQueries}) must do together: notifications keep their append
 * order through one global {@code EVENT_ID} sequence; the {@code KAFKA:schd} projection keeps one row per FLID holding
 * the newest version.
 * Delivery (claims, confirmations, failures, cleanup, backlog) runs on the store's auto-commit ports, as the dispatcher
 * uses them.
 */
public abstract class OutboxContract extends StoreContract {

    private <T> T inTx(PipelineStore.TransactionWork<T> work) {
        return store().inTransaction(work);
    }

    private boolean upsert(OutboxEvent projection) {
        return inTx(tx -> tx.projections().upsertProjection(projection));
    }

    private List<OutboxEntry> pending(OutboxTarget target) {
        return inTx(tx -> tx.outboxQueries().pending(target, 100));
    }

    // The store's auto-commit outbox ports, as the dispatcher uses them: each call its own statement.

    private Notifications notifications() {
        return store().notifications();
    }

    private Projections projections() {
        return store().projections();
    }

    private ReferenceNotifications referenceNotifications() {
        return store().referenceNotifications();
    }

    private DeadLetters deadLetters() {
        return store().deadLetters();
    }

    private OutboxCleanup outboxCleanup() {
        return store().outboxCleanup();
    }

    private OutboxQueries outboxQueries() {
        return store().outboxQueries();
    }

    private Instant now() {
        return clock.instant();
    }

    private long append(String flid, long version) {
        return inTx(tx -> tx.notifications().append(notification(flid, version, 100 + version)));
    }

    private long upsertAndGetId(String flid, long version) {
        assertThat(upsert(projection(flid, version, 100 + version))).isTrue();
        return pending(OutboxTarget.KAFKA_SCHD).stream()
                .filter(e -> e.event().partitionKey().equals(FlightId.of(flid)))
                .findFirst().orElseThrow().eventId();
    }

    private List<Long> dueNotificationIds(Instant at) {
        return notifications().dueNotifications(at, 100).stream().map(OutboxEntry::eventId).toList();
    }

    private List<Long> dueProjectionIds(Instant at) {
        return projections().dueProjections(at, 100).stream().map(OutboxEntry::eventId).toList();
    }

    private OutboxEntry pendingRow(long eventId) {
        return inTx(tx -> tx.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 100).stream()
                .filter(e -> e.eventId() == eventId).findFirst()
                .or(() -> tx.outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 100).stream()
                        .filter(e -> e.eventId() == eventId).findFirst())
                .orElseThrow(() -> new AssertionError("no pending row with EVENT_ID " + eventId)));
    }

    private void fail(long eventId, Instant retryAt) {
        assertThat(deadLetters().recordDeliveryFailure(eventId, "broker unreachable", retryAt, false, now())).isTrue();
    }

    private void kill(long eventId) {
        assertThat(deadLetters().recordDeliveryFailure(eventId, "record too large", now().plusSeconds(60), true, now()))
                .isTrue();
    }

    private OutboxEvent notification(String flid, long version, long msgId) {
        return new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of(flid), OutboxEvent.EventType.UPSERT, version, msgId,
                "{\"FLID\":\"" + flid + "\",\"v\":" + version + "}", clock.instant());
    }

    private OutboxEvent projection(String flid, long version, long msgId) {
        return new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of(flid), OutboxEvent.EventType.UPSERT, version,
                msgId, "{\"FLID\":\"" + flid + "\",\"STATE_VERSION\":" + version + "}", clock.instant());
    }

    private OutboxEvent tombstone(String flid, long version, long msgId) {
        return new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of(flid), OutboxEvent.EventType.TOMBSTONE, version,
                msgId, null, clock.instant());
    }

    // --- append, pending ---

    @Test
    void anAppendedNotificationIsPendingAsWritten() {
        var event = notification("1001", 3, 17);

        long eventId = inTx(tx -> tx.notifications().append(event));

        assertThat(pending(OutboxTarget.KAFKA_MSG)).containsExactly(
                new OutboxEntry(eventId, event, OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null));
    }

    @Test
    void appendOrderIsEventIdOrder() {
        var events = List.of(notification("1002", 1, 17), notification("1001", 5, 17), notification("1002", 2, 18));

        var eventIds = inTx(tx -> events.stream().map(tx.notifications()::append).toList());

        assertThat(eventIds).isSorted().doesNotHaveDuplicates();
        var pending = pending(OutboxTarget.KAFKA_MSG);
        assertThat(pending).extracting(OutboxEntry::eventId).containsExactlyElementsOf(eventIds);
        assertThat(pending).extracting(OutboxEntry::event).containsExactlyElementsOf(events);
    }

    @Test
    void eventIdsKeepGrowingAcrossTransactions() {
        long first = inTx(tx -> tx.notifications().append(notification("1001", 1, 17)));
        long second = inTx(tx -> tx.notifications().append(notification("1001", 2, 18)));

        assertThat(second).isGreaterThan(first);
    }

    @Test
    void pendingGivesAtMostTheLimitOldestFirst() {
        var eventIds = inTx(tx -> List.of(
                tx.notifications().append(notification("1001", 1, 17)),
                tx.notifications().append(notification("1001", 2, 18)),
                tx.notifications().append(notification("1001", 3, 19))));

        var firstTwo = inTx(tx -> tx.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 2));

        assertThat(firstTwo).extracting(OutboxEntry::eventId).containsExactlyElementsOf(eventIds.subList(0, 2));
    }

    @Test
    void pendingGivesOnlyTheRowsOfTheTarget() {
        inTx(tx -> {
            tx.notifications().append(notification("1001", 1, 17));
            tx.projections().upsertProjection(projection("1001", 1, 17));
            return null;
        });

        assertThat(pending(OutboxTarget.KAFKA_MSG)).extracting(e -> e.event().target())
                .containsExactly(OutboxTarget.KAFKA_MSG);
        assertThat(pending(OutboxTarget.KAFKA_SCHD)).extracting(e -> e.event().target())
                .containsExactly(OutboxTarget.KAFKA_SCHD);
    }

    @Test
    void eachTargetGoesThroughItsOwnOperation() {
        assertThatThrownBy(() -> inTx(tx -> tx.notifications().append(projection("1001", 1, 17))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> inTx(tx -> tx.projections().upsertProjection(notification("1001", 1, 17))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(pending(OutboxTarget.KAFKA_MSG)).isEmpty();
        assertThat(pending(OutboxTarget.KAFKA_SCHD)).isEmpty();
    }

    @Test
    void notificationsAppendedTogetherKeepTheirOrderAfterEarlierOnes() {
        long first = append("7", 1);
        inTx(tx -> {
            tx.notifications().appendAll(List.of(notification("8", 1, 201), notification("7", 2, 202), notification("8", 2, 203)));
            return null;
        });

        var rows = pending(OutboxTarget.KAFKA_MSG);
        assertThat(rows).extracting(r -> r.event().msgId()).containsExactly(101L, 201L, 202L, 203L);
        assertThat(rows.get(1).eventId()).isGreaterThan(first);
        assertThat(rows).extracting(OutboxEntry::eventId).isSorted();
        assertThat(rows.get(2).event().payload()).isEqualTo("{\"FLID\":\"7\",\"v\":2}");
    }

    @Test
    void projectionsUpsertedTogetherKeepTheNewestVersionOfEachFlid() {
        assertThat(upsert(projection("7", 5, 105))).isTrue();
        inTx(tx -> {
            tx.projections().upsertProjections(List.of(projection("7", 4, 204), projection("8", 1, 201),
                    tombstone("9", 3, 203)));
            return null;
        });

        var rows = pending(OutboxTarget.KAFKA_SCHD);
        assertThat(rows).extracting(r -> r.event().partitionKey().value(), r -> r.event().stateVersion())
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("7", 5L),
                        org.assertj.core.groups.Tuple.tuple("8", 1L), org.assertj.core.groups.Tuple.tuple("9", 3L));
        var nine = rows.stream().filter(r -> r.event().partitionKey().value().equals("9")).findFirst().orElseThrow();
        assertThat(nine.event().eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
        assertThat(nine.event().payload()).isNull();
    }

    // --- upsertProjection ---

    @Test
    void theFirstProjectionOfAFlightIsWritten() {
        var event = projection("1001", 1, 17);

        assertThat(upsert(event)).isTrue();

        var rows = pending(OutboxTarget.KAFKA_SCHD);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).event()).isEqualTo(event);
        assertThat(rows.get(0).status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(rows.get(0).attempts()).isZero();
    }

    @Test
    void aNewerProjectionReplacesTheRowWithANewEventId() {
        inTx(tx -> tx.projections().upsertProjection(projection("1001", 1, 17)));
        long before = pending(OutboxTarget.KAFKA_SCHD).get(0).eventId();
        clock.tick(Duration.ofSeconds(5));
        var newer = projection("1001", 2, 18);

        assertThat(upsert(newer)).isTrue();

        var rows = pending(OutboxTarget.KAFKA_SCHD);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).event()).isEqualTo(newer);
        assertThat(rows.get(0).eventId()).isGreaterThan(before);
    }

    @Test
    void anOlderProjectionIsRefusedAndLeavesTheRowAlone() {
        var newer = projection("1001", 5, 18);
        inTx(tx -> tx.projections().upsertProjection(newer));
        var before = pending(OutboxTarget.KAFKA_SCHD);

        assertThat(upsert(projection("1001", 4, 17))).isFalse();

        assertThat(pending(OutboxTarget.KAFKA_SCHD)).isEqualTo(before);
    }

    @Test
    void anEqualVersionReplacesTheRowWithANewEventId() {
        inTx(tx -> tx.projections().upsertProjection(projection("1001", 3, 17)));
        long before = pending(OutboxTarget.KAFKA_SCHD).get(0).eventId();
        var replay = new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of("1001"), OutboxEvent.EventType.UPSERT, 3, 40,
                "{\"FLID\":\"1001\",\"replayed\":true}", clock.instant().plusSeconds(60));

        assertThat(upsert(replay)).isTrue();

        var rows = pending(OutboxTarget.KAFKA_SCHD);
        assertThat(rows).extracting(OutboxEntry::event).containsExactly(replay);
        assertThat(rows.get(0).eventId()).isGreaterThan(before);
    }

    @Test
    void aTombstoneProjectionHasNoPayload() {
        inTx(tx -> tx.projections().upsertProjection(projection("1001", 1, 17)));
        var tombstone = tombstone("1001", 2, 18);

        assertThat(upsert(tombstone)).isTrue();

        assertThat(pending(OutboxTarget.KAFKA_SCHD)).extracting(OutboxEntry::event).containsExactly(tombstone);
    }

    @Test
    void eachFlightHasItsOwnProjection() {
        inTx(tx -> {
            tx.projections().upsertProjection(projection("1001", 7, 17));
            tx.projections().upsertProjection(projection("1002", 1, 17));
            return null;
        });

        assertThat(upsert(projection("1002", 2, 18))).isTrue();

        assertThat(pending(OutboxTarget.KAFKA_SCHD)).extracting(e -> e.event().partitionKey().value() + "@"
                + e.event().stateVersion()).containsExactlyInAnyOrder("1001@7", "1002@2");
    }

    @Test
    void projectionsAndNotificationsShareOneEventIdSequence() {
        var eventIds = inTx(tx -> {
            long a = tx.notifications().append(notification("1001", 1, 17));
            tx.projections().upsertProjection(projection("1001", 1, 17));
            long c = tx.notifications().append(notification("1001", 2, 18));
            return List.of(a, c);
        });

        long projectionId = pending(OutboxTarget.KAFKA_SCHD).get(0).eventId();
        assertThat(projectionId).isBetween(eventIds.get(0) + 1, eventIds.get(1) - 1);
    }

    // --- dueNotifications ---

    @Test
    void everyPendingNotificationIsDueInEventIdOrderAcrossFlights() {
        long first1001 = append("1001", 1);
        long first1002 = append("1002", 1);
        long second1001 = append("1001", 2);
        long second1002 = append("1002", 2);

        assertThat(dueNotificationIds(now())).containsExactly(first1001, first1002, second1001, second1002);
    }

    @Test
    void sentNotificationsLeaveTheRestOfTheirFlightDue() {
        long first = append("1001", 1);
        long second = append("1001", 2);

        assertThat(notifications().markSent(first, now())).isTrue();

        assertThat(dueNotificationIds(now())).containsExactly(second);
    }

    @Test
    void aFlightWhoseHeadWaitsForARetryYieldsNothingWhileOtherFlightsDo() {
        long head = append("1001", 1);
        append("1001", 2);
        long other = append("1002", 1);
        long otherNext = append("1002", 2);
        var retryAt = now().plusSeconds(30);

        fail(head, retryAt);

        assertThat(dueNotificationIds(now())).containsExactly(other, otherNext);
    }

    @Test
    void aFlightWhoseHeadFailedBeforeYieldsOnlyItsHeadOnceDue() {
        long head = append("1001", 1);
        append("1001", 2);
        long other = append("1002", 1);
        var retryAt = now().plusSeconds(30);

        fail(head, retryAt);

        assertThat(dueNotificationIds(retryAt)).as("one notification in flight while the flight is in trouble")
                .containsExactly(head, other);
        assertThat(notifications().markSent(head, retryAt)).isTrue();
        assertThat(dueNotificationIds(retryAt)).hasSize(2).as("recovered: the rest of the flight flows again")
                .doesNotContain(head);
    }

    @Test
    void aDeadNotificationDoesNotHoldItsFlightBack() {
        long head = append("1001", 1);
        long next = append("1001", 2);

        kill(head);

        assertThat(dueNotificationIds(now())).containsExactly(next);
    }

    @Test
    void aNotificationWaitingForARetryBecomesDueExactlyAtItsRetryTime() {
        long eventId = append("1001", 1);
        var retryAt = now().plusSeconds(30);

        fail(eventId, retryAt);

        assertThat(dueNotificationIds(retryAt.minusMillis(1))).isEmpty();
        assertThat(dueNotificationIds(retryAt)).containsExactly(eventId);
        assertThat(dueNotificationIds(retryAt.plusSeconds(3600))).containsExactly(eventId);
    }

    @Test
    void dueNotificationsComeInEventIdOrderAtMostTheLimit() {
        long a = append("1003", 1);
        long b = append("1003", 2);
        append("1002", 1);

        assertThat(notifications().dueNotifications(now(), 2)).extracting(OutboxEntry::eventId).containsExactly(a, b);
    }

    @Test
    void aHeadWaitingForARetryTakesNoPlaceInTheBatch() {
        long waiting = append("1001", 1);
        long b = append("1002", 1);
        long c = append("1003", 1);
        fail(waiting, now().plusSeconds(30));

        assertThat(notifications().dueNotifications(now(), 2)).extracting(OutboxEntry::eventId).containsExactly(b, c);
    }

    @Test
    void aClaimedNotificationComesAsWritten() {
        var event = notification("1001", 3, 17);
        long eventId = inTx(tx -> tx.notifications().append(event));

        assertThat(notifications().dueNotifications(now(), 10)).containsExactly(
                new OutboxEntry(eventId, event, OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null));
    }

    @Test
    void sentNotificationsAreNeverClaimedAgain() {
        long eventId = append("1001", 1);
        notifications().markSent(eventId, now());

        assertThat(dueNotificationIds(now().plusSeconds(3600))).isEmpty();
    }

    @Test
    void eachClaimGivesOnlyItsOwnTarget() {
        long notification = append("1001", 1);
        long projection = upsertAndGetId("1001", 1);

        assertThat(dueNotificationIds(now())).containsExactly(notification);
        assertThat(dueProjectionIds(now())).containsExactly(projection);
    }

    @Test
    void aClaimAfterAnEventIdLeavesOutEveryNotificationUpToIt() {
        long a = append("1001", 1);
        long b = append("1002", 1);
        long c = append("1001", 2);
        long d = append("1003", 1);

        assertThat(notifications().dueNotifications(now(), 2, b)).extracting(OutboxEntry::eventId)
                .containsExactly(c, d);
        assertThat(notifications().dueNotifications(now(), 10, 0)).extracting(OutboxEntry::eventId)
                .containsExactly(a, b, c, d);
        assertThat(notifications().dueNotifications(now(), 10, d)).isEmpty();
    }

    @Test
    void aClaimAfterAnEventIdStillHoldsBackAFlidWaitingForItsRetry() {
        long waiting = append("1001", 1);
        long b = append("1002", 1);
        append("1001", 2);
        long d = append("1002", 2);
        fail(waiting, now().plusSeconds(30));

        assertThat(notifications().dueNotifications(now(), 10, b)).extracting(OutboxEntry::eventId).containsExactly(d);
    }

    // --- dueProjections ---

    @Test
    void dueProjectionsComeInEventIdOrderAtMostTheLimit() {
        long a = upsertAndGetId("1003", 1);
        long b = upsertAndGetId("1001", 1);
        upsertAndGetId("1002", 1);

        assertThat(projections().dueProjections(now(), 2)).extracting(OutboxEntry::eventId).containsExactly(a, b);
    }

    @Test
    void aClaimAfterAnEventIdLeavesOutEveryProjectionUpToIt() {
        long a = upsertAndGetId("1003", 1);
        long b = upsertAndGetId("1001", 1);
        long c = upsertAndGetId("1002", 1);

        assertThat(projections().dueProjections(now(), 10, a)).extracting(OutboxEntry::eventId).containsExactly(b, c);
        assertThat(projections().dueProjections(now(), 10, c)).isEmpty();
    }

    @Test
    void aProjectionWaitingForARetryIsNotDueBeforeItsRetryTime() {
        long waiting = upsertAndGetId("1001", 1);
        long other = upsertAndGetId("1002", 1);
        var retryAt = now().plusSeconds(30);

        fail(waiting, retryAt);

        assertThat(dueProjectionIds(retryAt.minusMillis(1))).containsExactly(other);
        assertThat(dueProjectionIds(retryAt)).containsExactly(waiting, other);
    }

    @Test
    void sentAndDeadProjectionsAreNotClaimed() {
        upsertAndGetId("1001", 1);
        long dead = upsertAndGetId("1002", 1);
        long pending = upsertAndGetId("1003", 1);

        assertThat(projections().markProjectionSent(FlightId.of("1001"), 1, now())).isTrue();
        kill(dead);

        assertThat(dueProjectionIds(now().plusSeconds(3600))).containsExactly(pending);
    }

    // --- dueRetries ---

    @Test
    void theDueRetriesBeginAtTheLowestPendingEventWhoseRetryHasCome() {
        long later = append("1001", 1);
        long sooner = append("1002", 1);
        append("1003", 1);
        long projection = upsertAndGetId("1004", 1);
        var none = new OutboxQueries.DueRetries(OutboxQueries.DueRetries.NONE, OutboxQueries.DueRetries.NONE);
        assertThat(outboxQueries().dueRetries(now())).as("nothing failed yet").contains(none);

        fail(later, now().plusSeconds(30));
        fail(sooner, now().plusSeconds(10));
        fail(projection, now().plusSeconds(10));

        assertThat(outboxQueries().dueRetries(now().plusSeconds(9))).as("none due yet").contains(none);
        assertThat(outboxQueries().dueRetries(now().plusSeconds(10)))
                .contains(new OutboxQueries.DueRetries(sooner, projection));
        assertThat(outboxQueries().dueRetries(now().plusSeconds(30))).as("the lowest EVENT_ID, not the earliest time")
                .contains(new OutboxQueries.DueRetries(later, projection));
    }

    @Test
    void aRetryConfirmedOrDeadIsNoLongerDue() {
        long confirmed = append("1001", 1);
        long dead = append("1002", 1);
        long waiting = append("1003", 1);
        fail(confirmed, now());
        fail(dead, now());
        fail(waiting, now());

        assertThat(notifications().markSent(confirmed, now())).isTrue();
        kill(dead);

        assertThat(outboxQueries().dueRetries(now())
                .map(OutboxQueries.DueRetries::firstNotification)).contains(waiting);
    }

    // --- markSent ---

    @Test
    void aNotificationIsConfirmedOnceAndRemembersWhenItWasSent() {
        long eventId = append("1001", 1);
        var sentAt = now().plusSeconds(2);

        assertThat(notifications().markSent(eventId, sentAt)).isTrue();
        assertThat(notifications().markSent(eventId, sentAt.plusSeconds(1))).isFalse();

        assertThat(pending(OutboxTarget.KAFKA_MSG)).isEmpty();
        assertThat(outboxCleanup().deleteSentBefore(sentAt, 10)).as("kept: sent at, not before, the cutoff").isZero();
        assertThat(outboxCleanup().deleteSentBefore(sentAt.plusMillis(1), 10)).isEqualTo(1);
    }

    @Test
    void notificationsDeliveredTogetherAreConfirmedTogetherExceptTheDeadAndTheUnknown() {
        long a = append("1001", 1);
        long b = append("1002", 1);
        long dead = append("1003", 1);
        kill(dead);

        assertThat(notifications().markAllSent(List.of(a, b, dead, 404L), now())).isEqualTo(2);
        assertThat(notifications().markAllSent(List.of(a), now())).as("confirmed once").isZero();

        assertThat(pending(OutboxTarget.KAFKA_MSG)).isEmpty();
        assertThat(outboxQueries().deliveryBacklog().dead()).isEqualTo(1);
    }

    @Test
    void projectionsDeliveredTogetherAreConfirmedOnlyWhereTheSentVersionIsStillThere() {
        upsertAndGetId("1001", 3);
        upsertAndGetId("1002", 5);
        upsertAndGetId("1003", 1);
        upsertAndGetId("1002", 6);                       // replaced after version 5 was sent

        var confirmed = projections().markProjectionsSent(java.util.Map.of(FlightId.of("1001"), 3L,
                FlightId.of("1002"), 5L, FlightId.of("1003"), 1L), now());

        assertThat(confirmed).containsExactlyInAnyOrder(FlightId.of("1001"), FlightId.of("1003"));
        assertThat(pending(OutboxTarget.KAFKA_SCHD)).singleElement()
                .satisfies(e -> assertThat(e.event().stateVersion()).isEqualTo(6));
    }

    @Test
    void confirmingAnUnknownNotificationIsFalse() {
        assertThat(notifications().markSent(404, now())).isFalse();
    }

    @Test
    void aDeadNotificationCannotBeConfirmed() {
        long eventId = append("1001", 1);
        kill(eventId);

        assertThat(notifications().markSent(eventId, now())).isFalse();

        assertThat(outboxQueries().deliveryBacklog().dead()).isEqualTo(1);
    }

    @Test
    void aProjectionIsNeverConfirmedAsANotification() {
        long eventId = upsertAndGetId("1001", 1);

        assertThat(notifications().markSent(eventId, now())).isFalse();

        assertThat(dueProjectionIds(now())).containsExactly(eventId);
    }

    // --- markProjectionSent ---

    @Test
    void aProjectionIsConfirmedForTheVersionThatWasSent() {
        upsertAndGetId("1001", 1);
        var claimed = projections().dueProjections(now(), 10).get(0);

        assertThat(projections().markProjectionSent(claimed.event().partitionKey(), claimed.event().stateVersion(), now()))
                .isTrue();

        assertThat(dueProjectionIds(now())).isEmpty();
        assertThat(outboxQueries().deliveryBacklog().pending()).isZero();
    }

    @Test
    void aProjectionReplacedAfterTheClaimIsNotConfirmedAndTheNewerVersionStaysPending() {
        upsertAndGetId("1001", 1);
        var claimed = projections().dueProjections(now(), 10).get(0);
        long newer = upsertAndGetId("1001", 2);

        assertThat(projections().markProjectionSent(FlightId.of("1001"), claimed.event().stateVersion(), now()))
                .isFalse();

        var due = projections().dueProjections(now(), 10);
        assertThat(due).extracting(OutboxEntry::eventId).containsExactly(newer);
        assertThat(due.get(0).event().stateVersion()).isEqualTo(2);
        assertThat(due.get(0).status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
    }

    @Test
    void aProjectionIsConfirmedOnlyOnce() {
        upsertAndGetId("1001", 1);

        assertThat(projections().markProjectionSent(FlightId.of("1001"), 1, now())).isTrue();
        assertThat(projections().markProjectionSent(FlightId.of("1001"), 1, now())).isFalse();
    }

    @Test
    void confirmingTheProjectionOfAFlightWithoutOneIsFalse() {
        assertThat(projections().markProjectionSent(FlightId.of("1001"), 1, now())).isFalse();
    }

    @Test
    void confirmingAProjectionNeverConfirmsANotificationOfTheSameFlightAndVersion() {
        long notification = append("1001", 1);

        assertThat(projections().markProjectionSent(FlightId.of("1001"), 1, now())).isFalse();

        assertThat(dueNotificationIds(now())).containsExactly(notification);
    }

    @Test
    void aDeadProjectionCannotBeConfirmed() {
        long eventId = upsertAndGetId("1001", 1);
        kill(eventId);

        assertThat(projections().markProjectionSent(FlightId.of("1001"), 1, now())).isFalse();

        assertThat(outboxQueries().deliveryBacklog().dead()).isEqualTo(1);
    }

    @Test
    void aNewerVersionRevivesADeadProjectionAsPendingWithNoAttemptsNorError() {
        kill(upsertAndGetId("1001", 1));

        long revived = upsertAndGetId("1001", 2);

        assertThat(projections().dueProjections(now(), 10)).containsExactly(new OutboxEntry(revived,
                projection("1001", 2, 102), OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null));
        assertThat(outboxQueries().deliveryBacklog().dead()).isZero();
    }

    @Test
    void aNewerVersionReopensASentProjection() {
        upsertAndGetId("1001", 1);
        projections().markProjectionSent(FlightId.of("1001"), 1, now());

        long reopened = upsertAndGetId("1001", 2);

        assertThat(projections().dueProjections(now(), 10)).containsExactly(new OutboxEntry(reopened,
                projection("1001", 2, 102), OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null));
    }

    // --- recordDeliveryFailure ---

    @Test
    void aFailedDeliveryIsCountedWithItsErrorAndRetryTimeAndStaysPending() {
        long eventId = append("1001", 1);
        var firstRetry = now().plusSeconds(10);
        var secondRetry = now().plusSeconds(40);

        assertThat(deadLetters().recordDeliveryFailure(eventId, "timeout", firstRetry, false, now())).isTrue();
        var afterOne = pendingRow(eventId);
        assertThat(afterOne.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(afterOne.attempts()).isEqualTo(1);
        assertThat(afterOne.lastError()).isEqualTo("timeout");
        assertThat(afterOne.nextAttemptAt()).isEqualTo(firstRetry);

        assertThat(deadLetters().recordDeliveryFailure(eventId, "not leader", secondRetry, false, firstRetry)).isTrue();
        var afterTwo = pendingRow(eventId);
        assertThat(afterTwo.attempts()).isEqualTo(2);
        assertThat(afterTwo.lastError()).isEqualTo("not leader");
        assertThat(afterTwo.nextAttemptAt()).isEqualTo(secondRetry);
        assertThat(afterTwo.event()).isEqualTo(afterOne.event());
    }

    @Test
    void aFailedDeliveryMarkedDeadIsKeptAsADeadLetterAndNoLongerPending() {
        long eventId = append("1001", 1);

        assertThat(deadLetters().recordDeliveryFailure(eventId, "record too large", now(), true, now())).isTrue();

        assertThat(pending(OutboxTarget.KAFKA_MSG)).isEmpty();
        assertThat(dueNotificationIds(now().plusSeconds(3600))).isEmpty();
        assertThat(outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(0, 1, null));
        assertThat(outboxCleanup().deleteSentBefore(now().plusSeconds(3600), 10)).as("a dead letter is kept").isZero();
    }

    @Test
    void aFailureOfAProjectionReplacedMeanwhileIsNotRecorded() {
        long old = upsertAndGetId("1001", 1);
        long newer = upsertAndGetId("1001", 2);

        assertThat(deadLetters().recordDeliveryFailure(old, "timeout", now().plusSeconds(10), false, now())).isFalse();

        var row = pendingRow(newer);
        assertThat(row.attempts()).isZero();
        assertThat(row.lastError()).isNull();
        assertThat(row.nextAttemptAt()).isNull();
    }

    @Test
    void aFailureIsRecordedOnlyOnAPendingRow() {
        long sent = append("1001", 1);
        long dead = append("1002", 1);
        notifications().markSent(sent, now());
        kill(dead);

        assertThat(deadLetters().recordDeliveryFailure(sent, "late failure", now(), false, now())).isFalse();
        assertThat(deadLetters().recordDeliveryFailure(dead, "again", now(), false, now())).isFalse();
        assertThat(deadLetters().recordDeliveryFailure(404, "unknown", now(), false, now())).isFalse();

        assertThat(outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(0, 1, null));
        assertThat(dueNotificationIds(now())).isEmpty();
    }

    @Test
    void aVeryLongDeliveryErrorIsCutNotRefused() {
        long eventId = append("1001", 1);
        var error = "stack ".repeat(2_000);

        assertThat(deadLetters().recordDeliveryFailure(eventId, error, now(), false, now())).isTrue();

        var lastError = pendingRow(eventId).lastError();
        assertThat(error).startsWith(lastError);
        assertThat(lastError).hasSizeGreaterThanOrEqualTo(1000).hasSizeLessThan(error.length());
    }

    // --- deleteSentBefore ---

    @Test
    void cleanupDeletesOnlySentRowsConfirmedBeforeTheCutoff() {
        var cutoff = now().plusSeconds(60);
        long sentEarly = append("1001", 1);
        long sentAtCutoff = append("1002", 1);
        long pendingNotification = append("1003", 1);
        long dead = append("1004", 1);
        upsertAndGetId("1001", 1);
        notifications().markSent(sentEarly, cutoff.minusMillis(1));
        notifications().markSent(sentAtCutoff, cutoff);
        projections().markProjectionSent(FlightId.of("1001"), 1, cutoff.minusSeconds(30));
        kill(dead);

        assertThat(outboxCleanup().deleteSentBefore(cutoff, 100)).isEqualTo(2);

        assertThat(outboxCleanup().deleteSentBefore(cutoff, 100)).isZero();
        assertThat(dueNotificationIds(now())).containsExactly(pendingNotification);
        assertThat(outboxQueries().deliveryBacklog().dead()).isEqualTo(1);
        assertThat(outboxCleanup().deleteSentBefore(cutoff.plusMillis(1), 100)).as("the one sent at the cutoff")
                .isEqualTo(1);
    }

    @Test
    void cleanupNeverDeletesPendingOrDeadRowsHoweverOld() {
        long pendingNotification = append("1001", 1);
        long dead = append("1002", 1);
        long pendingProjection = upsertAndGetId("1003", 1);
        kill(dead);

        assertThat(outboxCleanup().deleteSentBefore(now().plus(Duration.ofDays(365)), 100)).isZero();

        assertThat(dueNotificationIds(now())).containsExactly(pendingNotification);
        assertThat(dueProjectionIds(now())).containsExactly(pendingProjection);
        assertThat(outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(2, 1, now()));
    }

    @Test
    void cleanupDeletesAtMostTheLimitPerCall() {
        for (var flid : List.of("1001", "1002", "1003")) {
            notifications().markSent(append(flid, 1), now());
        }
        var cutoff = now().plusSeconds(1);

        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isEqualTo(2);
        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isEqualTo(1);
        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isZero();
    }

    @Test
    void cleanupReachesSentRowsBehindTheRowsItKeeps() {
        long pendingNotification = append("1001", 1);
        long dead = append("1002", 1);
        kill(dead);
        for (var flid : List.of("1003", "1004", "1005", "1006", "1007")) {
            notifications().markSent(append(flid, 1), now());
        }
        var cutoff = now().plusSeconds(1);

        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isEqualTo(2);
        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isEqualTo(2);
        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isEqualTo(1);
        assertThat(outboxCleanup().deleteSentBefore(cutoff, 2)).isZero();
        assertThat(dueNotificationIds(now())).containsExactly(pendingNotification);
        assertThat(outboxQueries().deliveryBacklog().dead()).isEqualTo(1);
    }

    @Test
    void cleanupKeepsARowWrittenAtOrAfterTheCutoffWhateverItsSentAtSays() {
        long eventId = append("1001", 1);
        notifications().markSent(eventId, now().minusSeconds(5)); // a dispatcher whose clock is behind the pump's

        assertThat(outboxCleanup().deleteSentBefore(now(), 10)).as("written at the cutoff").isZero();
        assertThat(outboxCleanup().deleteSentBefore(now().plusMillis(1), 10)).isEqualTo(1);
    }

    @Test
    void aFlightWhoseSentProjectionWasCleanedUpGetsAFreshProjectionRow() {
        upsertAndGetId("1001", 1);
        projections().markProjectionSent(FlightId.of("1001"), 1, now());
        assertThat(outboxCleanup().deleteSentBefore(now().plusSeconds(1), 10)).isEqualTo(1);

        long fresh = upsertAndGetId("1001", 2);

        assertThat(dueProjectionIds(now())).containsExactly(fresh);
        assertThat(projections().markProjectionSent(FlightId.of("1001"), 2, now())).isTrue();
    }

    // --- deliveryBacklog ---

    @Test
    void anEmptyOutboxHasNoBacklog() {
        assertThat(outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(0, 0, null));
    }

    @Test
    void theBacklogCountsPendingAndDeadRowsAndTheOldestPendingCreationTime() {
        var start = now();
        long sent = append("1001", 1);
        clock.tick(Duration.ofMinutes(1));
        long waiting = append("1002", 1);
        fail(waiting, now().plusSeconds(600));
        clock.tick(Duration.ofMinutes(1));
        upsertAndGetId("1003", 1);
        long dead = append("1004", 1);
        notifications().markSent(sent, now());
        kill(dead);

        assertThat(outboxQueries().deliveryBacklog())
                .isEqualTo(new OutboxQueries.DeliveryBacklog(2, 1, start.plus(Duration.ofMinutes(1))));
    }

    @Test
    void theOldestPendingIsTheEarliestCreatedNotTheFirstAppended() {
        var early = now().minusSeconds(300);
        inTx(tx -> tx.notifications().append(notification("1001", 1, 17)));
        inTx(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of("1002"),
                OutboxEvent.EventType.UPSERT, 1, 18, "{\"FLID\":\"1002\"}", early)));

        assertThat(outboxQueries().deliveryBacklog().oldestPendingCreatedAt()).isEqualTo(early);
    }

    // --- a confirmed delivery stays confirmed ---

    @Test
    void aConfirmedDeliveryCannotBeRecordedAsFailedAfterwards() {
        long eventId = append("1001", 1);
        assertThat(notifications().markAllSent(List.of(eventId), now())).isEqualTo(1);

        assertThat(deadLetters().recordDeliveryFailure(eventId, "late failure", now().plusSeconds(5), false, now()))
                .isFalse();
        assertThat(deadLetters().recordDeliveryFailure(eventId, "late failure", now().plusSeconds(5), true, now()))
                .isFalse();
        assertThat(outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(0, 0, null));
    }

    @Test
    void aRetriedHeadThatWasDeliveredNoLongerHoldsItsFlightBack() {
        long head = append("1001", 1);
        long next = append("1001", 2);
        fail(head, now().plusSeconds(10));
        clock.tick(Duration.ofSeconds(10));
        assertThat(dueNotificationIds(now())).containsExactly(head);

        assertThat(notifications().markSent(head, now())).isTrue();

        assertThat(dueNotificationIds(now())).containsExactly(next);
    }

    // --- auto-commit ---

    @Test
    void theAutoCommitOutboxSeesWhatACommittedTransactionWrote() {
        var notification = notification("1001", 1, 17);
        var projection = projection("1001", 1, 17);
        long eventId = inTx(tx -> {
            tx.projections().upsertProjection(projection);
            return tx.notifications().append(notification);
        });

        var store = store();
        assertThat(store.notifications().dueNotifications(now(), 10)).extracting(OutboxEntry::eventId)
                .containsExactly(eventId);
        assertThat(store.projections().dueProjections(now(), 10)).extracting(OutboxEntry::event)
                .containsExactly(projection);
        assertThat(store.outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(2, 0, now()));
    }

    @Test
    void aConfirmationByTheAutoCommitOutboxIsSeenByTheNextTransaction() {
        long eventId = append("1001", 1);

        assertThat(store().notifications().markSent(eventId, now())).isTrue();

        assertThat(pending(OutboxTarget.KAFKA_MSG)).isEmpty();
    }

    @Test
    void aRolledBackTransactionLeavesNothingToDeliver() {
        assertThatThrownBy(() -> inTx(tx -> {
            tx.notifications().append(notification("1001", 1, 17));
            tx.projections().upsertProjection(projection("1001", 1, 17));
            throw new IllegalStateException("processing failed");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(dueNotificationIds(now())).isEmpty();
        assertThat(dueProjectionIds(now())).isEmpty();
        assertThat(outboxQueries().deliveryBacklog()).isEqualTo(new OutboxQueries.DeliveryBacklog(0, 0, null));
    }

    // --- KAFKA:ref (reference data, D-60) ---

    private static final String LONG_TYPE = "T".repeat(ReferenceData.MAX_TYPE_LENGTH);
    private static final String LONG_KEY = "中".repeat(ReferenceData.MAX_KEY_LENGTH);

    private ReferenceEvent referenceUpsert(String type, String key, long msgId) {
        return new ReferenceEvent(type, key, OutboxEvent.EventType.UPSERT, msgId,
                "{\"rtype\":\"" + type + "\",\"rkey\":\"" + key + "\",\"msgId\":" + msgId + "}", now());
    }

    private ReferenceEvent referenceTombstone(String type, String key, long msgId) {
        return new ReferenceEvent(type, key, OutboxEvent.EventType.TOMBSTONE, msgId, null, now());
    }

    private void upsertReferences(ReferenceEvent... events) {
        inTx(tx -> {
            tx.referenceNotifications().upsertReferences(List.of(events));
            return null;
        });
    }

    private ReferenceOutboxEntry referenceRow(String type, String key) {
        return referenceNotifications().referenceEvent(type, key)
                .orElseThrow(() -> new AssertionError("no KAFKA:ref row " + type
                + ":" + key));
    }

    @Test
    void referenceEventsAreOneRowPerKeyAndComeDueInEventIdOrder() {
        upsertReferences(referenceUpsert("GLST", "G17", 5), referenceUpsert("GLST", "G18", 5),
                referenceTombstone("SLST", "201", 5));

        var due = referenceNotifications().dueReferences(now(), 100);
        assertThat(due).extracting(e -> e.event().partitionKey()).containsExactly("GLST:G17", "GLST:G18", "SLST:201");
        assertThat(due.get(0).eventId()).isLessThan(due.get(1).eventId());
        assertThat(due.get(2).event().payload()).as("a tombstone has no payload").isNull();
        assertThat(due.get(2).event().eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
        assertThat(due.get(0).event()).isEqualTo(referenceUpsert("GLST", "G17", 5));
        assertThat(due.get(0).status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(referenceNotifications().dueReferences(now(), 2)).hasSize(2);
        assertThat(outboxQueries().deliveryBacklog().pending()).isEqualTo(3);
    }

    @Test
    void aNewerChangeReplacesTheRowOfItsKeyAndAnOlderOneDoesNot() {
        upsertReferences(referenceUpsert("GLST", "G17", 5));
        long first = referenceRow("GLST", "G17").eventId();

        upsertReferences(referenceTombstone("GLST", "G17", 7));
        var replaced = referenceRow("GLST", "G17");
        assertThat(replaced.eventId()).isGreaterThan(first);
        assertThat(replaced.event().eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);

        upsertReferences(referenceUpsert("GLST", "G17", 6));
        assertThat(referenceRow("GLST", "G17")).as("an older message's change is not written").isEqualTo(replaced);
        assertThat(referenceNotifications().dueReferences(now(), 100)).hasSize(1);
    }

    @Test
    void theWidestReferenceKeyIsStoredWhole() {
        upsertReferences(referenceUpsert(LONG_TYPE, LONG_KEY, 1));

        assertThat(referenceRow(LONG_TYPE, LONG_KEY).event().partitionKey())
                .hasSize(ReferenceEvent.MAX_PARTITION_KEY_LENGTH).isEqualTo(LONG_TYPE + ":" + LONG_KEY);
    }

    @Test
    void aKeyHoldingAColonKeepsItsTypeAndKey() {
        upsertReferences(referenceUpsert("AIRL", "CA:1", 1));

        assertThat(referenceRow("AIRL", "CA:1").event()).isEqualTo(referenceUpsert("AIRL", "CA:1", 1));
    }

    @Test
    void aDeliveredReferenceIsConfirmedByItsEventIdUnlessItWasReplacedMeanwhile() {
        upsertReferences(referenceUpsert("GLST", "G17", 5), referenceUpsert("GLST", "G18", 5));
        var claimed = referenceNotifications().dueReferences(now(), 100);
        upsertReferences(referenceUpsert("GLST", "G18", 6)); // replaced while the round was being sent

        int confirmed = referenceNotifications().markReferencesSent(claimed.stream()
                .map(ReferenceOutboxEntry::eventId).toList(),
                now());

        assertThat(confirmed).isEqualTo(1);
        assertThat(referenceRow("GLST", "G17").status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
        assertThat(referenceRow("GLST", "G17").sentAt()).isEqualTo(now());
        assertThat(referenceNotifications().dueReferences(now(), 100)).extracting(e -> e.event().msgId())
                .containsExactly(6L);
        assertThat(referenceNotifications().markReferencesSent(List.of(claimed.get(0).eventId()), now())).as("once")
                .isZero();
    }

    @Test
    void aFailedReferenceWaitsForItsRetryAndANewerChangeStartsAfresh() {
        upsertReferences(referenceUpsert("GLST", "G17", 5));
        long id = referenceRow("GLST", "G17").eventId();
        var retryAt = now().plus(Duration.ofMinutes(1));

        fail(id, retryAt);

        assertThat(referenceNotifications().dueReferences(now(), 100)).isEmpty();
        assertThat(referenceNotifications().dueReferences(retryAt, 100)).extracting(ReferenceOutboxEntry::attempts)
                .containsExactly(1);
        assertThat(referenceRow("GLST", "G17").lastError()).isEqualTo("broker unreachable");
        assertThat(deadLetters().recordDeliveryFailure(id, "gone", retryAt, true, now())).isTrue();
        assertThat(referenceRow("GLST", "G17").status()).isEqualTo(OutboxEntry.DeliveryStatus.DEAD);
        assertThat(outboxQueries().deliveryBacklog().dead()).isEqualTo(1);

        upsertReferences(referenceUpsert("GLST", "G17", 6));
        var fresh = referenceRow("GLST", "G17");
        assertThat(fresh.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(fresh.attempts()).isZero();
        assertThat(fresh.nextAttemptAt()).isNull();
        assertThat(referenceNotifications().dueReferences(now(), 100)).hasSize(1);
    }

    @Test
    void sentReferenceRowsAreCleanedUpLikeTheOthers() {
        upsertReferences(referenceUpsert("GLST", "G17", 5), referenceUpsert("GLST", "G18", 5));
        long sent = referenceRow("GLST", "G17").eventId();
        referenceNotifications().markReferencesSent(List.of(sent), now());
        clock.tick(Duration.ofDays(8));

        assertThat(outboxCleanup().deleteSentBefore(now().minus(Duration.ofDays(7)), 100)).isEqualTo(1);

        assertThat(referenceNotifications().referenceEvent("GLST", "G17")).isEmpty();
        assertThat(referenceNotifications().referenceEvent("GLST", "G18")).isPresent();
    }

    @Test
    void aRolledBackReferenceWriteLeavesNothing() {
        assertThatThrownBy(() -> inTx(tx -> {
            tx.referenceNotifications().upsertReferences(List.of(referenceUpsert("GLST", "G17", 5)));
            throw new IllegalStateException("boom");
        })).hasMessage("boom");

        assertThat(referenceNotifications().dueReferences(now(), 100)).isEmpty();
    }

    // --- the dead-letter queue (issue 23, D-67) ---

    @Test
    void deadRowsOfEveryTargetAreListedOldestFirstWithWhatKilledThem() {
        long n1 = append("1001", 1);
        append("1001", 2);
        long p1 = upsertAndGetId("1002", 4);
        upsertReferences(referenceUpsert("GLST", "G17", 5));
        long r1 = referenceRow("GLST", "G17").eventId();
        kill(n1);
        kill(p1);
        kill(r1);

        var dead = deadLetters().deadEvents(100);

        assertThat(dead).extracting(DeadEvent::eventId).containsExactly(n1, p1, r1);
        assertThat(dead).extracting(DeadEvent::target)
                .containsExactly(OutboxTarget.KAFKA_MSG, OutboxTarget.KAFKA_SCHD, OutboxTarget.KAFKA_REF);
        assertThat(dead).extracting(DeadEvent::key).containsExactly("1001", "1002", "GLST:G17");
        assertThat(dead).extracting(DeadEvent::version).containsExactly(1L, 4L, 5L);
        assertThat(dead.get(0).attempts()).isEqualTo(1);
        assertThat(dead.get(0).lastError()).isEqualTo("record too large");
        assertThat(dead.get(0).createdAt()).isEqualTo(now());
        assertThat(dead.get(0).diedAt()).isEqualTo(now().plusSeconds(60));
        assertThat(deadLetters().deadEvents(2)).hasSize(2);
    }

    @Test
    void aResentDeadNotificationIsPendingAgainWithItsEventIdAndNoAttemptsAndDueAtOnce() {
        long n1 = append("1001", 1);
        kill(n1);
        clock.tick(Duration.ofMinutes(5));

        assertThat(deadLetters().resendDead(List.of(n1, 999_999L), now())).containsExactly(n1);

        var row = pendingRow(n1);
        assertThat(row.attempts()).isZero();
        assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(row.event().payload()).isEqualTo("{\"FLID\":\"1001\",\"v\":1}");
        assertThat(dueNotificationIds(now())).containsExactly(n1);
        outboxQueries().dueRetries(now()).ifPresent( // a store that answers (else the dispatcher always reads from the start)
                due -> assertThat(due.firstNotification()).as("found by a dispatcher resuming where it settled")
                        .isEqualTo(n1));
        assertThat(deadLetters().deadEvents(100)).isEmpty();
        assertThat(deadLetters().resendDead(List.of(n1), now())).as("only DEAD rows are resent").isEmpty();
    }

    @Test
    void aResentNotificationGoesBeforeTheLaterPendingOnesOfItsFlightAndAfterTheEarlierOnes() {
        long n1 = append("1001", 1);
        long n2 = append("1001", 2);
        kill(n2);
        long n3 = append("1001", 3);
        long m1 = append("1003", 1);
        kill(m1);
        long m2 = append("1003", 2);

        assertThat(deadLetters().resendDead(List.of(n2, m1), now())).containsExactly(n2, m1);

        assertThat(dueNotificationIds(now())).as("EVENT_ID order among each FLID's pending notifications")
                .containsExactly(n1, n2, n3, m1);
        assertThat(dueNotificationIds(now())).as("1003's resent head goes alone first").doesNotContain(m2);
        assertThat(notifications().markAllSent(List.of(m1), now())).isEqualTo(1);
        assertThat(dueNotificationIds(now())).containsExactly(n1, n2, n3, m2);
    }

    @Test
    void resentProjectionsAndReferenceRowsAreDueAtOnce() {
        long p1 = upsertAndGetId("1002", 4);
        upsertReferences(referenceUpsert("GLST", "G17", 5));
        long r1 = referenceRow("GLST", "G17").eventId();
        kill(p1);
        kill(r1);

        assertThat(deadLetters().resendDead(List.of(r1, p1), now())).containsExactly(p1, r1);

        assertThat(dueProjectionIds(now())).containsExactly(p1);
        assertThat(pendingRow(p1).attempts()).isZero();
        assertThat(referenceNotifications().dueReferences(now(), 100)).extracting(ReferenceOutboxEntry::eventId)
                .containsExactly(r1);
        assertThat(referenceRow("GLST", "G17").attempts()).isZero();
    }

    @Test
    void purgeDeletesDeadRowsOnly() {
        long n1 = append("1001", 1);
        long n2 = append("1001", 2);
        long p1 = upsertAndGetId("1002", 4);
        upsertReferences(referenceUpsert("GLST", "G17", 5));
        long r1 = referenceRow("GLST", "G17").eventId();
        kill(n1);
        kill(p1);
        kill(r1);

        assertThat(deadLetters().purgeDead(List.of(n1, n2, p1, r1))).containsExactlyInAnyOrder(n1, p1, r1);

        assertThat(deadLetters().deadEvents(100)).isEmpty();
        assertThat(pending(OutboxTarget.KAFKA_MSG)).extracting(OutboxEntry::eventId).containsExactly(n2);
        assertThat(referenceNotifications().referenceEvent("GLST", "G17")).isEmpty();
        assertThat(upsert(projection("1002", 5, 105))).as("a purged projection is written afresh").isTrue();
        assertThat(pending(OutboxTarget.KAFKA_SCHD)).hasSize(1);
    }

    @Test
    void aRearmedProjectionIsPendingAgainWithItsCurrentVersionWhetherSentOrDead() {
        long p1 = upsertAndGetId("1002", 4);
        assertThat(projections().markProjectionsSent(java.util.Map.of(FlightId.of("1002"), 4L), now())).hasSize(1);
        assertThat(projections().rearmProjection(FlightId.of("1002"), now())).as("a SENT row")
                .hasValueSatisfying(row -> {
            assertThat(row.eventId()).isEqualTo(p1);
            assertThat(row.event().stateVersion()).isEqualTo(4);
            assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        });
        assertThat(dueProjectionIds(now())).containsExactly(p1);
        assertThat(projections().rearmProjection(FlightId.of("1002"), now())).as("already pending").isEmpty();

        kill(p1);
        assertThat(projections().rearmProjection(FlightId.of("1002"), now())).as("a DEAD row").isPresent();
        assertThat(pendingRow(p1).attempts()).isZero();
        assertThat(projections().rearmProjection(FlightId.of("1099"), now())).as("no such row").isEmpty();
    }
}
