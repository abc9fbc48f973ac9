package io.msgx.pipeline.delivery;

import io.msgx.pipeline.published.ReferenceEventJson;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ReferenceEvent;

import java.time.Instant;
import java.util.Objects;

/**
 * What a published record says about itself besides its key and value (docs/consumers.md, "Headers"): its CloudEvents
 * attributes and msgexchange's own headers. Built from what the outbox committed, never from the time of sending, so
 * that every copy of one event carries the same ones, whichever instance sends it (D-123). The sink adds the source
 * (site and instance) and writes them.
 *
 * @param id           {@code ce_id}: {@code change:<FLID>:<version>}, {@code state:<FLID>:<version>} or the reference
 *                     record's dedup key {@code <RTYPE>:<RKEY>@<msgId>}
 * @param type         {@code ce_type}, versioned with the contract ({@link #FLIGHT_CHANGED}, ...)
 * @param subject      {@code ce_subject}: the FLID, or {@code RTYPE:RKEY}
 * @param time         {@code ce_time}: when the change was committed (the outbox row's creation)
 * @param stateVersion {@code msgx_stateversion}: the flight's version; null on the reference stream
 * @param msgId        {@code msgx_msgid}: the mailbox message that caused the change; 0 for a retention change
 */
public record EventAttributes(String id, String type, String subject, Instant time, Long stateVersion, long msgId) {

    /** {@code ce_type} of a {@code msg} record: a change of one flight, contract version 1. */
    public static final String FLIGHT_CHANGED = "io.msgx.flight.changed.v1";
    /** {@code ce_type} of a {@code schd} record: a flight's full state (or its deletion), contract version 1. */
    public static final String FLIGHT_STATE = "io.msgx.flight.state.v1";
    /** {@code ce_type} of a {@code reference} record: one reference record (or its removal), contract version 1. */
    public static final String REFERENCE_RECORD = "io.msgx.reference.record.v1";

    public EventAttributes {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(time, "time");
    }

    /** The attributes of a {@code KAFKA:msg} or {@code KAFKA:schd} outbox row. */
    public static EventAttributes ofFlight(OutboxEvent event) {
        var flid = event.partitionKey().value();
        boolean change = event.target() == OutboxTarget.KAFKA_MSG;
        return new EventAttributes((change ? "change:" : "state:") + flid + ":" + event.stateVersion(),
                change ? FLIGHT_CHANGED : FLIGHT_STATE, flid, event.createdAt(), event.stateVersion(), event.msgId());
    }

    /** The attributes of a {@code KAFKA:ref} outbox row. */
    public static EventAttributes ofReference(ReferenceEvent event) {
        return new EventAttributes(ReferenceEventJson.dedupKey(event.type(), event.key(), event.msgId()),
                REFERENCE_RECORD, event.partitionKey(), event.createdAt(), null, event.msgId());
    }
}
