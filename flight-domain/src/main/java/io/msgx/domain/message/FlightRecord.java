package io.msgx.domain.message;

import java.util.Objects;

/**
 * One {@code FLTR} of a schedule. {@code flid} is the raw text (null when the element is missing) so that a
 * package can be validated whole, with a precise reason, before anything is applied.
 */
public record FlightRecord(String flid, FlightPatch patch) {

    public FlightRecord {
        Objects.requireNonNull(patch, "patch");
    }
}
