package io.msgx.pipeline.port;

import io.msgx.pipeline.record.DeadEvent;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * Failed deliveries of every outbox target and the dead-letter queue they end in (issue 23, D-67): recording a
 * failure, listing, resending and purging {@code DEAD} rows.
 */
public interface DeadLetters {

    /**
     * Record a failed delivery of the PENDING row with this {@code EVENT_ID}: attempts one more, the error, and
     * either due again at {@code nextAttemptAt} or {@code DEAD} (kept as the dead-letter record). False when no
     * PENDING row has that ID any more (a projection replaced by a newer version).
     */
    boolean recordDeliveryFailure(long eventId, String error, Instant nextAttemptAt, boolean dead, Instant now);

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
}
