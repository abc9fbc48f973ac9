package io.msgx.pipeline.port;

import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxTarget;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Reads across the outbox's targets: undelivered rows, where due retries begin, and the delivery gauges' counts. */
public interface OutboxQueries {

    /**
     * Undelivered rows of a target in {@code EVENT_ID} order, at most {@code limit}, due or not. Not for
     * {@code KAFKA:ref} (see {@link ReferenceNotifications#dueReferences}).
     */
    List<OutboxEntry> pending(OutboxTarget target, int limit);

    /**
     * Where the retries due at {@code now} begin: the lowest {@code EVENT_ID} among the {@code PENDING} notifications,
     * and among the {@code PENDING} projections, whose delivery failed before and whose {@code NEXT_ATTEMPT_AT} has
     * come ({@link DueRetries#NONE} for a target with none). A dispatcher that knows every event up to some ID was
     * dealt with starts its next run there, or just before the first due retry (D-47), instead of reading the
     * status index from its first entry every run. Every store answers; a dispatcher given an empty answer (a
     * store that could not tell) starts every run from the first pending row.
     */
    Optional<DueRetries> dueRetries(Instant now);

    /** Counts for the delivery gauges. */
    DeliveryBacklog deliveryBacklog();

    /** The lowest {@code EVENT_ID} of the due retries of each target: {@link #NONE} when a target has none. */
    record DueRetries(long firstNotification, long firstProjection) {
        public static final long NONE = Long.MAX_VALUE;
    }

    /** Undelivered and dead rows, and the creation time of the oldest undelivered one (null when none). */
    record DeliveryBacklog(long pending, long dead, Instant oldestPendingCreatedAt) {
    }
}
