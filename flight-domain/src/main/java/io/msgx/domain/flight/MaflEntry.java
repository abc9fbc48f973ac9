package io.msgx.domain.flight;

import java.util.Objects;

/** One code-share child in a master's {@code MAFL}: the child's FLID and flight number (may be null). */
public record MaflEntry(FlightId flid, String flno) {

    public MaflEntry {
        Objects.requireNonNull(flid, "flid");
    }
}
