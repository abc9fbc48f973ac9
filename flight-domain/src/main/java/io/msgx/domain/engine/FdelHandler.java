package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.message.FlightDeletion;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code FDEL}: the business deletion of one flight.
 *
 * <p>Rule. Only {@code ACTIVE → DELETED} changes anything: the flight keeps its fields and lists, its version
 * goes up and a tombstone is emitted. Deleting a DELETED flight, or a FLID the store has never seen, is an
 * idempotent success that changes nothing. Deleting a code-share child removes it from its master's
 * {@code MAFL} (the engine versions the master and notifies it). Deleting a master deletes its ACTIVE
 * code-share children in the same decision, each with its own tombstone, so no child outlives its master.
 */
final class FdelHandler implements MessageHandler<FlightDeletion> {

    @Override
    public HandlerResult handle(FlightDeletion deletion, FlightSnapshot current, long msgId) {
        if (!FlightId.isValid(deletion.flid())) {
            return HandlerResult.rejected("FDEL has no usable FLID");
        }
        var flid = FlightId.of(deletion.flid());
        var flight = current.find(flid);
        if (flight.isEmpty()) {
            return HandlerResult.noChange(Decision.NoChangeReason.DELETE_OF_UNKNOWN_FLIGHT,
                    "FDEL for unknown FLID " + flid);
        }
        if (!flight.get().isActive()) {
            return HandlerResult.noChange(Decision.NoChangeReason.ALREADY_DELETED,
                    "FDEL for FLID " + flid + ", already deleted");
        }
        Map<FlightId, FlightState> next = new LinkedHashMap<>();
        next.put(flid, flight.get().withStatus(FlightStatus.DELETED));
        if (flight.get().carriesMafl()) {
            current.childrenOf(flid).stream()
                    .filter(FlightState::isActive)
                    .forEach(child -> next.put(child.flid(), child.withStatus(FlightStatus.DELETED)));
        }
        return new HandlerResult.Proposed(next);
    }
}
