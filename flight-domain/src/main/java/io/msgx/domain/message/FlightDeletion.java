package io.msgx.domain.message;

/** {@code FDEL}: delete one flight. {@code flid} is the raw text, null when the message carries none. */
public record FlightDeletion(String flid) implements FlightMessage {
    @Override
    public <R> R match(Cases<R> cases) {
        return cases.deletion(this);
    }
}
