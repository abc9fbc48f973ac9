package io.msgx.pipeline.delivery;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;

import java.time.Clock;

/** The outbox rows the dispatcher's tests write and read in their store, written at the clock's time. */
final class OutboxRows {

    private final H2TestStore store;
    private final Clock clock;

    OutboxRows(H2TestStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A notification of the flight's version; its event ID. */
    long notify(String flid, long version) {
        return store.inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of(flid),
                OutboxEvent.EventType.UPSERT, version, 1, "{\"flid\":\"" + flid + "\",\"stateVersion\":" + version + "}",
                clock.instant())));
    }

    /** The flight's projection at the version. */
    void project(String flid, long version) {
        store.inTransaction(tx -> tx.projections().upsertProjection(new OutboxEvent(OutboxTarget.KAFKA_SCHD,
                FlightId.of(flid), OutboxEvent.EventType.UPSERT, version, 1, "{\"v\":" + version + "}", clock.instant())));
    }

    /** The outbox row of the event, as it stands now. */
    OutboxEntry row(long eventId) {
        return store.allEvents().stream().filter(e -> e.eventId() == eventId).findFirst().orElseThrow();
    }
}
