package io.msgx.pipeline.record;

import java.time.Instant;
import java.util.Objects;

/**
 * A {@code DEAD} outbox row, as the dead-letter queue shows it to an operator (D-67): any target.
 *
 * @param eventId   its {@code EVENT_ID}, which a resend keeps
 * @param target    {@code KAFKA:msg}, {@code KAFKA:schd} or {@code KAFKA:ref}
 * @param key       the record's key: the FLID, or {@code RTYPE:RKEY} for reference data
 * @param version   the flight's state version; for reference data the ID of the message that made the change
 * @param attempts  delivery attempts used
 * @param lastError the last refusal, as the sink reported it (null when none was kept)
 * @param createdAt when the change was committed
 * @param diedAt    when its last attempt failed (the row's last {@code NEXT_ATTEMPT_AT})
 */
public record DeadEvent(long eventId, OutboxTarget target, String key, long version, int attempts, String lastError,
                        Instant createdAt, Instant diedAt) {

    public DeadEvent {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
