package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;

import java.util.List;
import java.util.Objects;

/**
 * One flight a decision changed: its state before (null for a new flight), the full state after (with its
 * version already advanced), its {@code MAFL} after the change (null when the flight publishes none: a
 * child, or a deleted flight), and the event to emit.
 */
public record FlightChange(FlightState before, FlightState after, List<MaflEntry> mafl, FlightEvent event) {

    public FlightChange {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(event, "event");
        mafl = mafl == null ? null : List.copyOf(mafl);
    }

    public boolean isNew() {
        return before == null;
    }
}
