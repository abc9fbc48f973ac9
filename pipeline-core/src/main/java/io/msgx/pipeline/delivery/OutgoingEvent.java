package io.msgx.pipeline.delivery;

import java.util.Objects;

/**
 * One record to publish: the stream it belongs to, its key (the FLID) and its JSON value; a null value is a
 * tombstone (only on the {@code schd} stream).
 */
public record OutgoingEvent(EventStream stream, String key, String value) {

    public OutgoingEvent {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(key, "key");
        if (value == null && stream != EventStream.SCHD) {
            throw new IllegalArgumentException("only the schd stream carries tombstones");
        }
    }

    /** The two published streams; the sink maps each to its configured topic. */
    public enum EventStream {
        /** Change notifications ({@code msgx.flight.msg} by default). */
        MSG,
        /** Full state, latest wins, compacted ({@code msgx.flight.schd} by default). */
        SCHD
    }
}
