package io.msgx.pipeline.pump;

import io.msgx.domain.engine.FlightChange;
import io.msgx.pipeline.event.FlightEventJson;
import io.msgx.pipeline.store.OutboxEvent;
import io.msgx.pipeline.store.OutboxTarget;
import io.msgx.pipeline.store.PipelineTransaction;

import java.time.Instant;
import java.util.List;

/**
 * Writes what a decision changed, inside the caller's locked transaction: the full states (main rows and
 * lists), one {@code KAFKA:msg} notification per changed flight, and its {@code KAFKA:schd} projection — or a
 * tombstone for a deleted flight. The one way flight changes reach the store and the outbox.
 */
public final class FlightChangeWriter {

    private final FlightEventJson json = new FlightEventJson();

    /**
     * @param msgId the mailbox message that caused the change (0 for the lifecycle cleanup)
     * @param type  the cause's TYPE, as published in notifications
     * @param styp  the cause's STYP
     */
    public void write(PipelineTransaction tx, List<FlightChange> changes, long msgId, String type, String styp,
                      Instant now) {
        tx.flights().save(changes.stream().map(FlightChange::after).toList(), now);
        for (var change : changes) {
            var flight = change.after();
            var deleted = !flight.isActive();
            var eventType = deleted ? OutboxEvent.EventType.TOMBSTONE : OutboxEvent.EventType.UPSERT;
            tx.outbox().append(new OutboxEvent(OutboxTarget.KAFKA_MSG, flight.flid(), eventType, flight.stateVersion(),
                    msgId, json.notification(change.event(), msgId, type, styp), now));
            tx.outbox().upsertProjection(new OutboxEvent(OutboxTarget.KAFKA_SCHD, flight.flid(), eventType,
                    flight.stateVersion(), msgId, deleted ? null : json.projection(change, now), now));
        }
    }
}
