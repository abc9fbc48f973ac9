package io.msgx.pipeline.record;

import java.time.Instant;
import java.util.Objects;

/** A stored outbox row: the event, its {@code EVENT_ID} and its delivery state. */
public record OutboxEntry(
        long eventId,
        OutboxEvent event,
        DeliveryStatus status,
        int attempts,
        Instant nextAttemptAt,
        String lastError,
        Instant sentAt) {

    /** {@code MSG_EVENT.STATUS}. */
    public enum DeliveryStatus {
        PENDING,
        SENT,
        DEAD
    }

    public OutboxEntry {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(status, "status");
    }
}
