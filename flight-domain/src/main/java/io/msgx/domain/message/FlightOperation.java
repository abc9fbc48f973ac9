package io.msgx.domain.message;

import java.util.Objects;

/**
 * A dynamic operational change ({@code FLOP}) to one flight. {@code flid} is the raw text, null when the
 * message carries none. The patch holds the elements of the body; the subtype decides which of them apply.
 */
public record FlightOperation(FlopSubtype subtype, String flid, FlightPatch patch) implements FlightMessage {

    public FlightOperation {
        Objects.requireNonNull(subtype, "subtype");
        Objects.requireNonNull(patch, "patch");
    }

    @Override
    public <R> R match(Cases<R> cases) {
        return cases.operation(this);
    }
}
