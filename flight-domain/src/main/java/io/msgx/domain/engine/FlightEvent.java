package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightId;

import java.util.List;
import java.util.Objects;

/**
 * The change notification one decision emits for one flight: which version it produced, whether the flight
 * was upserted or deleted, and the protocol codes that changed ({@code STATE}, {@code OPERATION_DAY} and
 * {@code MAFL} name those parts of the state).
 */
public record FlightEvent(FlightId flid, long stateVersion, ChangeType change, List<String> changed) {

    public FlightEvent {
        Objects.requireNonNull(flid, "flid");
        Objects.requireNonNull(change, "change");
        changed = List.copyOf(changed);
    }
}
