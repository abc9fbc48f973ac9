package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code MSG_EVENT}: the transactional outbox. Event IDs come from one global sequence. */
public interface Outbox {

    /** Append a {@code KAFKA:msg} notification with a new {@code EVENT_ID}; returns it. */
    long append(OutboxEvent notification);

    /**
     * Write the {@code KAFKA:schd} projection of a FLID: one row per FLID, replaced (new {@code EVENT_ID},
     * back to {@code PENDING}, attempts and error cleared) only when the event's version is not older than
     * the row's. True when written, false when a newer version is already there.
     */
    boolean upsertProjection(OutboxEvent projection);

    /**
     * {@link #append} for several notifications, in the order given (their {@code EVENT_ID}s ascend in that
     * order). The default appends one by one; a store overrides it with one batch.
     */
    default void appendAll(List<OutboxEvent> notifications) {
        notifications.forEach(this::append);
    }

    /**
     * {@link #upsertProjection} for several FLIDs, at most one projection each, written in the order given (callers
     * give FLID order, as {@link #markProjectionsSent} gets it, so the two never wait for each other in a cycle).
     * The default writes one by one; a store overrides it with one batch.
     */
    default void upsertProjections(Collection<OutboxEvent> projections) {
        projections.forEach(this::upsertProjection);
    }

    // --- reference data (KAFKA:ref, D-60) ---

    /**
     * Write the {@code KAFKA:ref} rows of reference changes, in the order given: one row per {@code RTYPE:RKEY},
     * replaced (new {@code EVENT_ID}, back to {@code PENDING}, attempts and error cleared) unless it holds the change of
     * a later message ({@code STATE_VERSION} = the message's ID). A key appears at most once in {@code events}.
     */
    void upsertReferences(List<ReferenceEvent> events);

    /** The {@code KAFKA:ref} rows that are {@code PENDING} and due, in {@code EVENT_ID} order, at most {@code limit}. */
    List<ReferenceOutboxEntry> dueReferences(Instant now, int limit);

    /** The {@code KAFKA:ref} row of one record, whatever its state; empty when there is none (or it was cleaned up). */
    Optional<ReferenceOutboxEntry> referenceEvent(String type, String key);

    /**
     * Confirm delivered {@code KAFKA:ref} rows by {@code EVENT_ID}, only while {@code PENDING}; returns how many. A row
     * replaced meanwhile has a new {@code EVENT_ID} and stays pending, so its newer change goes out next round.
     */
    int markReferencesSent(Collection<Long> eventIds, Instant sentAt);

    /**
     * Undelivered rows of a target in {@code EVENT_ID} order, at most {@code limit}, due or not. Not for
     * {@code KAFKA:ref} (see {@link #dueReferences}).
     */
    List<OutboxEntry> pending(OutboxTarget target, int limit);

    /**
     * The {@code KAFKA:msg} notifications of one FLID still in the outbox (pending, dead, or sent and not yet
     * cleaned up), newest first, at most {@code limit}: which message made each version. For operators' look-ups.
     * The default answers that this store cannot; the stores override it.
     */
    default List<OutboxEntry> notificationsOf(FlightId flid, int limit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot list a flight's notifications");
    }

    // --- delivery (the dispatcher, each call its own statement) ---

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

    /** {@code KAFKA:schd} rows that are {@code PENDING} and due, in {@code EVENT_ID} order, at most {@code limit}. */
    default List<OutboxEntry> dueProjections(Instant now, int limit) {
        return dueProjections(now, limit, 0);
    }

    /** {@link #dueProjections(Instant, int)} among the rows whose {@code EVENT_ID} is above {@code afterEventId}. */
    List<OutboxEntry> dueProjections(Instant now, int limit, long afterEventId);

    /**
     * Where the retries due at {@code now} begin: the lowest {@code EVENT_ID} among the {@code PENDING} notifications,
     * and among the {@code PENDING} projections, whose delivery failed before and whose {@code NEXT_ATTEMPT_AT} has
     * come ({@link DueRetries#NONE} for a target with none). A dispatcher that knows every event up to some ID was
     * dealt with starts its next run there, or just before the first due retry (D-47), instead of reading the
     * status index from its first entry every run. Empty when this store cannot answer without reading every
     * pending row: the dispatcher then starts every run from the first pending row. The default is empty.
     */
    default Optional<DueRetries> dueRetries(Instant now) {
        return Optional.empty();
    }

    /** Confirm a delivered notification: {@code SENT} and {@code SENT_AT} in one statement, only while PENDING. */
    boolean markSent(long eventId, Instant sentAt);

    /**
     * Confirm a delivered projection only if the FLID's row still holds the version that was sent
     * ({@code WHERE STATE_VERSION = <sent>}) and is PENDING; false when a newer version replaced it meanwhile,
     * which then goes out next round.
     */
    boolean markProjectionSent(FlightId flid, long stateVersion, Instant sentAt);

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

    /**
     * {@link #markProjectionSent} for projections delivered together, by FLID and sent version; returns the FLIDs
     * confirmed (the others were replaced by a newer version meanwhile). The default confirms one by one; a store
     * overrides it with one batch.
     */
    default Set<FlightId> markProjectionsSent(Map<FlightId, Long> sentVersions, Instant sentAt) {
        var confirmed = new LinkedHashSet<FlightId>();
        sentVersions.forEach((flid, version) -> {
            if (markProjectionSent(flid, version, sentAt)) {
                confirmed.add(flid);
            }
        });
        return confirmed;
    }

    /**
     * Record a failed delivery of the PENDING row with this {@code EVENT_ID}: attempts one more, the error, and
     * either due again at {@code nextAttemptAt} or {@code DEAD} (kept as the dead-letter record). False when no
     * PENDING row has that ID any more (a projection replaced by a newer version).
     */
    boolean recordDeliveryFailure(long eventId, String error, Instant nextAttemptAt, boolean dead, Instant now);

    /**
     * Delete {@code SENT} rows sent and written before {@code cutoff} ({@code SENT_AT} and {@code CREATED_AT} both
     * before it), at most {@code limit}; returns how many. Called again while it returns {@code limit}, it deletes
     * every such row. {@code PENDING} and {@code DEAD} rows are never deleted. A row is sent after it was written, so
     * the second condition only keeps, until a later cutoff, a row whose clocks disagree (D-49).
     */
    int deleteSentBefore(Instant cutoff, int limit);

    // --- the dead-letter queue (operators, issue 23, D-67; each call its own statement) ---

    /** The {@code DEAD} rows of every target in {@code EVENT_ID} order (oldest first), at most {@code limit}. */
    List<DeadEvent> deadEvents(int limit);

    /**
     * Makes the {@code DEAD} rows among {@code eventIds} {@code PENDING} again, each keeping its {@code EVENT_ID}, its
     * payload and its last error, with its attempts back to 0; returns the IDs made pending (in {@code EVENT_ID} order;
     * an ID that is not a {@code DEAD} row is left out). A resent row is due at {@code now}, flagged as a retry
     * ({@code NEXT_ATTEMPT_AT = now}) so that a dispatcher resuming where it settled finds it at once (D-47) — except a
     * {@code KAFKA:msg} row behind an older pending notification of its FLID, which keeps no {@code NEXT_ATTEMPT_AT}
     * and simply waits its turn: among a FLID's pending notifications {@code EVENT_ID} order rules, so a resent
     * notification goes before the FLID's later ones still pending and after its earlier ones (D-67).
     */
    List<Long> resendDead(Collection<Long> eventIds, Instant now);

    /** Deletes the {@code DEAD} rows among {@code eventIds}; returns the IDs deleted. Other rows are never touched. */
    List<Long> purgeDead(Collection<Long> eventIds);

    /**
     * Makes the {@code KAFKA:schd} row of a FLID {@code PENDING} again as it stands — its current version and payload,
     * no new flight version — with attempts 0 and due at {@code now}, when it is {@code SENT} or {@code DEAD}: the
     * flight's full state goes out again (a consumer lost it, or it died). Returns the row as it is now; empty when the
     * FLID has no projection row (never written, or delivered and cleaned up) or it is pending already.
     */
    Optional<OutboxEntry> rearmProjection(FlightId flid, Instant now);

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
