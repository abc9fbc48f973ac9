package io.msgx.pipeline.port;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code KAFKA:schd} projections of the outbox: one row per FLID holding its latest full state, replaced by newer
 * versions, sent and confirmed by version.
 */
public interface Projections {

    /**
     * Write the {@code KAFKA:schd} projection of a FLID: one row per FLID, replaced (new {@code EVENT_ID},
     * back to {@code PENDING}, attempts and error cleared) only when the event's version is not older than
     * the row's. True when written, false when a newer version is already there.
     */
    boolean upsertProjection(OutboxEvent projection);

    /**
     * {@link #upsertProjection} for several FLIDs, at most one projection each, written in the order given (callers
     * give FLID order, as {@link #markProjectionsSent} gets it, so the two never wait for each other in a cycle).
     * The default writes one by one; a store overrides it with one batch.
     */
    default void upsertProjections(Collection<OutboxEvent> projections) {
        projections.forEach(this::upsertProjection);
    }

    /** {@code KAFKA:schd} rows that are {@code PENDING} and due, in {@code EVENT_ID} order, at most {@code limit}. */
    default List<OutboxEntry> dueProjections(Instant now, int limit) {
        return dueProjections(now, limit, 0);
    }

    /** {@link #dueProjections(Instant, int)} among the rows whose {@code EVENT_ID} is above {@code afterEventId}. */
    List<OutboxEntry> dueProjections(Instant now, int limit, long afterEventId);

    /**
     * Confirm a delivered projection only if the FLID's row still holds the version that was sent
     * ({@code WHERE STATE_VERSION = <sent>}) and is PENDING; false when a newer version replaced it meanwhile,
     * which then goes out next round.
     */
    boolean markProjectionSent(FlightId flid, long stateVersion, Instant sentAt);

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
     * Makes the {@code KAFKA:schd} row of a FLID {@code PENDING} again as it stands — its current version and payload,
     * no new flight version — with attempts 0 and due at {@code now}, when it is {@code SENT} or {@code DEAD}: the
     * flight's full state goes out again (a consumer lost it, or it died). Returns the row as it is now; empty when the
     * FLID has no projection row (never written, or delivered and cleaned up) or it is pending already.
     */
    Optional<OutboxEntry> rearmProjection(FlightId flid, Instant now);
}
