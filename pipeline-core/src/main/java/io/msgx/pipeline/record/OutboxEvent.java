package io.msgx.pipeline.record;

import io.msgx.domain.flight.FlightId;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
        createdAt = committedAt(createdAt);
        if (target == OutboxTarget.KAFKA_REF) {
            throw new IllegalArgumentException("a KAFKA:ref row is a ReferenceEvent (ReferenceNotifications.upsertReferences), not an"
                    + " OutboxEvent");
        }
        if (payload == null && !(target == OutboxTarget.KAFKA_SCHD && eventType == EventType.TOMBSTONE)) {
            throw new IllegalArgumentException("only a KAFKA:schd tombstone has no payload");
        }
    }

    /**
     * A commit time as it is kept and published: to the microsecond, the precision the stores keep {@code CREATED_AT}
     * in. The outbox rows ({@code OutboxEvent}, {@code ReferenceEvent}) and the payloads' {@code updatedAt} both take it
     * so, and a record's {@code ce_time}, read back from its row, is then the payload's {@code updatedAt}.
     */
    public static Instant committedAt(Instant time) {
        return time.truncatedTo(ChronoUnit.MICROS);
    }
}
