package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;

import java.time.Instant;
import java.util.Objects;

/**
 * An event to deliver, as the processor writes it. The payload is the exact JSON value to send (null for a
 * tombstone on {@code KAFKA:schd}); the partition key is the FLID.
 */
public record OutboxEvent(
        OutboxTarget target,
        FlightId partitionKey,
        EventType eventType,
        long stateVersion,
        long msgId,
        String payload,
        Instant createdAt) {

    /** {@code MSG_EVENT.EVENT_TYPE}. */
    public enum EventType {
        UPSERT,
        TOMBSTONE
    }

    public OutboxEvent {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(createdAt, "createdAt");
        // To the microsecond, as the stores keep CREATED_AT, and as the payload's updatedAt is written
        // (FlightEventJson.committedAt): the record's ce_time, read back from the row, is then that same instant.
        createdAt = createdAt.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        if (target == OutboxTarget.KAFKA_REF) {
            throw new IllegalArgumentException("a KAFKA:ref row is a ReferenceEvent (ReferenceNotifications.upsertReferences), not an"
                    + " OutboxEvent");
        }
        if (payload == null && !(target == OutboxTarget.KAFKA_SCHD && eventType == EventType.TOMBSTONE)) {
            throw new IllegalArgumentException("only a KAFKA:schd tombstone has no payload");
        }
    }
}
