package io.msgx.pipeline.delivery;

import java.util.Objects;

/**
 * One record to publish: the stream it belongs to, its key (the FLID; {@code RTYPE:RKEY} on the reference stream),
 * its JSON value, and the attributes its headers carry; a null value is a tombstone (only on the {@code schd} and
 * reference streams).
 */
public record OutgoingEvent(EventStream stream, String key, String value, EventAttributes attributes) {

    public OutgoingEvent {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(attributes, "attributes");
        if (value == null && stream == EventStream.MSG) {
            throw new IllegalArgumentException("the msg stream carries no tombstones");
        }
    }

    /** The published streams; the sink maps each to its configured topic. */
    public enum EventStream {
        /** Change notifications ({@code msgx.flight.msg} by default). */
        MSG,
        /** Full state, latest wins, compacted ({@code msgx.flight.schd} by default). */
        SCHD,
        /** Reference data, latest wins per {@code RTYPE:RKEY}, compacted ({@code msgx.reference} by default). */
        REF
    }
}
