package io.msgx.pipeline.testing;

import io.msgx.pipeline.delivery.EventAttributes;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.delivery.OutgoingEvent.EventStream;

import java.time.Instant;

/** Records to hand a sink in its tests, with the attributes the dispatcher would give them (version 1, message 0). */
public final class OutgoingEvents {

    /** When every test record was committed. */
    public static final Instant COMMITTED_AT = Instant.parse("2024-03-11T00:30:00Z");

    private OutgoingEvents() {
    }

    /** A record of {@code stream} keyed {@code key} with {@code value} (null: a tombstone). */
    public static OutgoingEvent event(EventStream stream, String key, String value) {
        var attributes = switch (stream) {
            case MSG -> new EventAttributes("change:" + key + ":1", EventAttributes.FLIGHT_CHANGED, key, COMMITTED_AT, 1L, 0);
            case SCHD -> new EventAttributes("state:" + key + ":1", EventAttributes.FLIGHT_STATE, key, COMMITTED_AT, 1L, 0);
            case REF -> new EventAttributes(key + "@0", EventAttributes.REFERENCE_RECORD, key, COMMITTED_AT, null, 0);
        };
        return new OutgoingEvent(stream, key, value, attributes);
    }
}
