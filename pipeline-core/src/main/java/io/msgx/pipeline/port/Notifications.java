package io.msgx.pipeline.port;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The {@code KAFKA:msg} notifications of the outbox ({@code MSG_EVENT}): one row per flight change, appended in the
 * business transaction, sent in {@code EVENT_ID} order per FLID and confirmed. Event IDs come from one global sequence.
 */
public interface Notifications {

    /** Append a {@code KAFKA:msg} notification with a new {@code EVENT_ID}; returns it. */
    long append(OutboxEvent notification);

    /**
     * {@link #append} for several notifications, in the order given (their {@code EVENT_ID}s ascend in that
     * order). The default appends one by one; a store overrides it with one batch.
     */
    default void appendAll(List<OutboxEvent> notifications) {
        notifications.forEach(this::append);
    }

    /**
     * The {@code KAFKA:msg} notifications of one FLID still in the outbox (pending, dead, or sent and not yet
     * cleaned up), newest first, at most {@code limit}: which message made each version. For operators' look-ups.
     */
    List<OutboxEntry> notificationsOf(FlightId flid, int limit);

    /**
     * The notifications to send now: the {@code PENDING} {@code KAFKA:msg} rows in {@code EVENT_ID} order, at most
     * {@code limit}, except that a FLID whose head (its oldest pending notification) has failed before — it has a
     * {@code NEXT_ATTEMPT_AT} — yields only that head, and only once it is due. So every FLID contributes an
     * in-order prefix of its pending notifications, nothing of a FLID overtakes a head that waits for its retry,
     * and a FLID in trouble has one notification in flight until it recovers; {@code DEAD} rows do not hold their
     * FLID back (D-35).
     */
    default List<OutboxEntry> dueNotifications(Instant now, int limit) {
        return dueNotifications(now, limit, 0);
    }

    /**
     * {@link #dueNotifications(Instant, int)} among the notifications whose {@code EVENT_ID} is above
     * {@code afterEventId} (EVENT_IDs are positive: 0 is every one): the next round of a dispatcher whose previous
     * round, up to that ID, is still being confirmed (D-40).
     */
    List<OutboxEntry> dueNotifications(Instant now, int limit, long afterEventId);

    /** Confirm a delivered notification: {@code SENT} and {@code SENT_AT} in one statement, only while PENDING. */
    boolean markSent(long eventId, Instant sentAt);

    /**
     * {@link #markSent} for notifications delivered together; returns how many were confirmed. The default confirms
     * one by one; a store overrides it with one statement.
     */
    default int markAllSent(Collection<Long> eventIds, Instant sentAt) {
        int confirmed = 0;
        for (long eventId : eventIds) {
            confirmed += markSent(eventId, sentAt) ? 1 : 0;
        }
        return confirmed;
    }
}
