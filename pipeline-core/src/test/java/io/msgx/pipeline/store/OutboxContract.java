package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link Outbox} must do: notifications keep their append order through one global {@code EVENT_ID}
 * sequence; the {@code KAFKA:schd} projection keeps one row per FLID holding the newest version.
 */
public abstract class OutboxContract {

    protected final SettableClock clock = SettableClock.atExampleDay();

    /** A fresh, empty store, using {@link #clock}. */
    protected abstract PipelineStore store();

    private <T> T inTx(PipelineStore.TransactionWork<T> work) {
        return store().inTransaction(work);
    }

    private boolean upsert(OutboxEvent projection) {
        return inTx(tx -> tx.outbox().upsertProjection(projection));
    }

    private List<OutboxEntry> pending(OutboxTarget target) {
        return inTx(tx -> tx.outbox().pending(target, 100));
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

        long eventId = inTx(tx -> tx.outbox().append(event));

        assertThat(pending(OutboxTarget.KAFKA_MSG)).containsExactly(
                new OutboxEntry(eventId, event, OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null));
    }

    @Test
    void appendOrderIsEventIdOrder() {
        var events = List.of(notification("1002", 1, 17), notification("1001", 5, 17), notification("1002", 2, 18));

        var eventIds = inTx(tx -> events.stream().map(tx.outbox()::append).toList());

        assertThat(eventIds).isSorted().doesNotHaveDuplicates();
        var pending = pending(OutboxTarget.KAFKA_MSG);
        assertThat(pending).extracting(OutboxEntry::eventId).containsExactlyElementsOf(eventIds);
        assertThat(pending).extracting(OutboxEntry::event).containsExactlyElementsOf(events);
    }

    @Test
    void eventIdsKeepGrowingAcrossTransactions() {
        long first = inTx(tx -> tx.outbox().append(notification("1001", 1, 17)));
        long second = inTx(tx -> tx.outbox().append(notification("1001", 2, 18)));

        assertThat(second).isGreaterThan(first);
    }

    @Test
    void pendingGivesAtMostTheLimitOldestFirst() {
        var eventIds = inTx(tx -> List.of(
                tx.outbox().append(notification("1001", 1, 17)),
                tx.outbox().append(notification("1001", 2, 18)),
                tx.outbox().append(notification("1001", 3, 19))));

        var firstTwo = inTx(tx -> tx.outbox().pending(OutboxTarget.KAFKA_MSG, 2));

        assertThat(firstTwo).extracting(OutboxEntry::eventId).containsExactlyElementsOf(eventIds.subList(0, 2));
    }

    @Test
    void pendingGivesOnlyTheRowsOfTheTarget() {
        inTx(tx -> {
            tx.outbox().append(notification("1001", 1, 17));
            tx.outbox().upsertProjection(projection("1001", 1, 17));
            return null;
        });

        assertThat(pending(OutboxTarget.KAFKA_MSG)).extracting(e -> e.event().target())
                .containsExactly(OutboxTarget.KAFKA_MSG);
        assertThat(pending(OutboxTarget.KAFKA_SCHD)).extracting(e -> e.event().target())
                .containsExactly(OutboxTarget.KAFKA_SCHD);
    }

    @Test
    void eachTargetGoesThroughItsOwnOperation() {
        assertThatThrownBy(() -> inTx(tx -> tx.outbox().append(projection("1001", 1, 17))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> inTx(tx -> tx.outbox().upsertProjection(notification("1001", 1, 17))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(pending(OutboxTarget.KAFKA_MSG)).isEmpty();
        assertThat(pending(OutboxTarget.KAFKA_SCHD)).isEmpty();
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
        inTx(tx -> tx.outbox().upsertProjection(projection("1001", 1, 17)));
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
        inTx(tx -> tx.outbox().upsertProjection(newer));
        var before = pending(OutboxTarget.KAFKA_SCHD);

        assertThat(upsert(projection("1001", 4, 17))).isFalse();

        assertThat(pending(OutboxTarget.KAFKA_SCHD)).isEqualTo(before);
    }

    @Test
    void anEqualVersionReplacesTheRowWithANewEventId() {
        inTx(tx -> tx.outbox().upsertProjection(projection("1001", 3, 17)));
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
        inTx(tx -> tx.outbox().upsertProjection(projection("1001", 1, 17)));
        var tombstone = tombstone("1001", 2, 18);

        assertThat(upsert(tombstone)).isTrue();

        assertThat(pending(OutboxTarget.KAFKA_SCHD)).extracting(OutboxEntry::event).containsExactly(tombstone);
    }

    @Test
    void eachFlightHasItsOwnProjection() {
        inTx(tx -> {
            tx.outbox().upsertProjection(projection("1001", 7, 17));
            tx.outbox().upsertProjection(projection("1002", 1, 17));
            return null;
        });

        assertThat(upsert(projection("1002", 2, 18))).isTrue();

        assertThat(pending(OutboxTarget.KAFKA_SCHD)).extracting(e -> e.event().partitionKey().value() + "@"
                + e.event().stateVersion()).containsExactlyInAnyOrder("1001@7", "1002@2");
    }

    @Test
    void projectionsAndNotificationsShareOneEventIdSequence() {
        var eventIds = inTx(tx -> {
            long a = tx.outbox().append(notification("1001", 1, 17));
            tx.outbox().upsertProjection(projection("1001", 1, 17));
            long c = tx.outbox().append(notification("1001", 2, 18));
            return List.of(a, c);
        });

        long projectionId = pending(OutboxTarget.KAFKA_SCHD).get(0).eventId();
        assertThat(projectionId).isBetween(eventIds.get(0) + 1, eventIds.get(1) - 1);
    }
}
