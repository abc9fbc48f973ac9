package io.msgx.pipeline.delivery;

import io.msgx.pipeline.delivery.OutgoingEvent.EventStream;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ReferenceOutboxEntry;

/**
 * An outbox row as the record the sink publishes: the one place that says which stream each {@link OutboxTarget} goes
 * to ({@link #streamOf}), and what value and attributes its record carries.
 */
final class OutgoingEvents {

    private OutgoingEvents() {
    }

    /**
     * The stream the rows of {@code target} are published on. A switch without a default: a new target without a
     * stream does not compile.
     */
    static EventStream streamOf(OutboxTarget target) {
        return switch (target) {
            case KAFKA_MSG -> EventStream.MSG;
            case KAFKA_SCHD -> EventStream.SCHD;
            case KAFKA_REF -> EventStream.REF;
        };
    }

    /**
     * A notification ({@code KAFKA:msg}, its JSON stamped with the row's {@code EVENT_ID}) or a projection
     * ({@code KAFKA:schd}, its JSON as stored, null for a tombstone), keyed by the FLID.
     */
    static OutgoingEvent of(OutboxEntry entry) {
        var event = entry.event();
        var key = event.partitionKey().value();
        var attributes = EventAttributes.ofFlight(event);
        var stream = streamOf(event.target());
        var value = stream == EventStream.MSG ? FlightEventJson.withEventId(event.payload(), entry.eventId())
                : event.payload();
        return new OutgoingEvent(stream, key, value, attributes);
    }

    /** A reference change ({@code KAFKA:ref}), keyed by its {@code RTYPE:RKEY}. */
    static OutgoingEvent of(ReferenceOutboxEntry entry) {
        return new OutgoingEvent(streamOf(OutboxTarget.KAFKA_REF), entry.event().partitionKey(),
                entry.event().payload(), EventAttributes.ofReference(entry.event()));
    }
}
