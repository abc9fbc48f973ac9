package io.msgx.pipeline.record;

import java.time.Instant;
import java.util.Objects;

/** A stored {@code KAFKA:ref} outbox row: the change, its {@code EVENT_ID} and its delivery state. */
public record ReferenceOutboxEntry(
        long eventId,
        ReferenceEvent event,
        OutboxEntry.DeliveryStatus status,
        int attempts,
        Instant nextAttemptAt,
        String lastError,
        Instant sentAt) {

    public ReferenceOutboxEntry {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(status, "status");
    }
}
