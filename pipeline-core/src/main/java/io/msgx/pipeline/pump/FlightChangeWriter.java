package io.msgx.pipeline.pump;

import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.published.ChangeCause;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes what the decisions of one locked transaction changed: the full states (main rows and lists), one
 * {@code KAFKA:msg} notification per changed flight and decision, and each flight's {@code KAFKA:schd} projection
 * — or a tombstone for a deleted flight. The one way flight changes reach the store and the outbox.
 *
 * <p>Decisions are {@linkplain #add added} as they are made and read the flights through {@link #flights()}, which
 * sees the earlier decisions of the same transaction; {@link #flush} then writes everything in a few batched
 * statements: each changed flight once in its last state, every notification in decision order (so
 * {@code EVENT_ID}s follow it), and one projection per flight, of its last version.
 */
public final class FlightChangeWriter {

    private final FlightEventJson json;
    private final FlightBuffer flights;
    private final List<OutboxEvent> notifications = new ArrayList<>();
    private final Map<FlightId, LastChange> lastChanges = new LinkedHashMap<>();

    private record LastChange(FlightChange change, ChangeCause cause) {
    }

    /** A writer for one transaction, reading and writing flights through {@code store}, publishing as {@code json}. */
    public FlightChangeWriter(FlightStore store, FlightEventJson json) {
        this(store, json, FlightCache.off());
    }

    /** A writer for one transaction that reads through {@code cache} ({@link FlightBuffer}). */
    public FlightChangeWriter(FlightStore store, FlightEventJson json, FlightCache cache) {
        this.json = json;
        this.flights = new FlightBuffer(store, cache);
    }

    /** The flights as this transaction's decisions left them so far. */
    public FlightStore flights() {
        return flights;
    }

    /**
     * Read ahead, in as few store calls as possible, the flights {@code flids} and the children of {@code masters},
     * and the former versions (D-103) of those of {@code flids} that do not exist.
     */
    public void readAhead(Collection<FlightId> flids, Collection<FlightId> masters) {
        flights.readAhead(flids, masters);
    }

    /** The flights {@link #flush} wrote, each in its last state. */
    public List<FlightState> written() {
        return flights.written();
    }

    /** Record the changes of one decision, which {@code cause} caused (a message, or the history cleanup). */
    public void add(List<FlightChange> changes, ChangeCause cause, Instant now) {
        flights.save(changes.stream().map(FlightChange::after).toList(), now);
        for (var change : changes) {
            var flight = change.after();
            notifications.add(new OutboxEvent(OutboxTarget.KAFKA_MSG, flight.flid(), eventTypeOf(change),
                    flight.stateVersion(), cause.msgId(), json.notification(change.event(), cause, now), now));
            lastChanges.put(flight.flid(), new LastChange(change, cause));
        }
    }

    /** Write everything recorded, in the caller's transaction. */
    public void flush(PipelineTransaction tx, Instant now) {
        flights.flush(now);
        if (!notifications.isEmpty()) {
            tx.notifications().appendAll(notifications);
            notifications.clear();
        }
        if (!lastChanges.isEmpty()) {
            // In FLID order, as the dispatcher confirms them: two transactions locking the same projection rows in
            // opposite orders deadlock (seen in the bench: the group fell back to one message at a time).
            tx.projections().upsertProjections(lastChanges.values().stream().map(last -> projection(last, now))
                    .sorted(java.util.Comparator.comparing(OutboxEvent::partitionKey)).toList());
            lastChanges.clear();
        }
    }

    private OutboxEvent projection(LastChange last, Instant now) {
        var flight = last.change().after();
        var deleted = !flight.isActive();
        return new OutboxEvent(OutboxTarget.KAFKA_SCHD, flight.flid(), eventTypeOf(last.change()), flight.stateVersion(),
                last.cause().msgId(), deleted ? null : json.projection(last.change(), last.cause(), now), now);
    }

    private static OutboxEvent.EventType eventTypeOf(FlightChange change) {
        return change.after().isActive() ? OutboxEvent.EventType.UPSERT : OutboxEvent.EventType.TOMBSTONE;
    }
}
