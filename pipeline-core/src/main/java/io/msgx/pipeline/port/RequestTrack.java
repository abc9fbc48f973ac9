package io.msgx.pipeline.port;

import io.msgx.pipeline.record.MatchMode;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.record.RequestKind;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code REQ_TRACK}: our requests to the AODB side and their answers (seeds §7.2, sis-format §6). The state
 * machine is {@code PENDING → SENT → DONE}, and an open request ({@code PENDING}, {@code SENT}) may become
 * {@code EXPIRED}; a closed request ({@code DONE}, {@code EXPIRED}) never changes again, so a late or timed-out
 * answer cannot touch it.
 *
 * <p><b>One open request per key</b> {@code (type key, cover day, sender)}, where the type key is
 * {@value RequestKind#SCHEDULE_TYPE} for a schedule request and the reference type for a reference request (a
 * null cover day is a key value of its own). The stores enforce it (PostgreSQL by partial unique indexes on the
 * open rows); closed requests never block a new one.
 *
 * <p>Writes belong in a transaction ({@link PipelineTransaction#requests()}); {@link PipelineStore#requests()}
 * runs each call auto-committed, {@link #register} as one short transaction of its own.
 */
public interface RequestTrack {

    /** The width of {@code REQ_TRACK.REQ_TYPE}. */
    int MAX_TYPE_LENGTH = 16;

    /** The width of {@code REQ_TRACK.SENDER}. */
    int MAX_SENDER_LENGTH = 64;

    /** The width of {@code REQ_TRACK.REQ_SEQN}. */
    int MAX_SEQN_LENGTH = 64;

    /**
     * Register a new request, {@code PENDING}, created at {@code now}: first every open ({@code PENDING} or
     * {@code SENT}) request with the same key {@code (kind.typeKey(subject), coverDay, sender)} becomes
     * {@code EXPIRED} with {@code closedAt = now}, then the new row is inserted. Safe inside a transaction: the
     * expiry precedes the insert, so the open-request rule is never violated, and concurrent registrations of
     * the same key are serialised (PostgreSQL: a transaction-scoped advisory lock on the key).
     *
     * @param subject  the reference type for {@link RequestKind#REFERENCE} (1 to {@value #MAX_TYPE_LENGTH}
     *                 characters, not {@value RequestKind#SCHEDULE_TYPE}); must be null for
     *                 {@link RequestKind#SCHEDULE}
     * @param coverDay the covered operation day; required for {@link RequestKind#SCHEDULE}
     * @param seqn     our outbound {@code SEQN}, unique among the open requests (the reconciliation token); a
     *                 closed request's number may be used again (the numbers cycle, D-111)
     * @throws IllegalArgumentException when an argument breaks the rules above, the window ends before it starts,
     *                                  or {@code seqn} is carried by another open request
     */
    Request register(RequestKind kind, String subject, LocalDate coverDay, String sender, String seqn,
                     Instant windowStart, Instant windowEnd, Instant now);

    /**
     * The {@code COUTMSGS} write of request {@code id} is confirmed: {@code PENDING → SENT}, linking
     * {@code outMsgId} and {@code sentAt}. Only a {@code PENDING} request moves; false (nothing changed) for any
     * other status or an unknown ID.
     */
    boolean markSent(long id, long outMsgId, Instant sentAt);

    /** The request with {@code id}. */
    Optional<Request> find(long id);

    /**
     * The request an answer's {@code RQSN} of {@code seqn} names: the open request carrying it, else the one
     * registered last among the closed requests that carried it (whose late answer it may be), else empty. Our
     * numbers cycle (D-111), so an older closed request with the same number is never preferred to the open one.
     */
    Optional<Request> findBySeqn(String seqn);

    /**
     * The {@code SEQN} of the request registered last (the highest ID), whatever its status; empty when there is no
     * request: where the next number of the cycle starts (D-111).
     */
    Optional<String> lastSeqn();

    /** The {@code SEQN}s the open ({@code PENDING}, {@code SENT}) requests carry: numbers that must not be used again. */
    List<String> openSeqns();

    /**
     * The {@code SENT} requests of {@code kind} (and, for {@link RequestKind#REFERENCE}, of reference type
     * {@code subject}; ignored for {@link RequestKind#SCHEDULE}), oldest (creation order) first: the candidates of
     * degraded matching. {@code PENDING} requests are not listed (nothing was sent).
     */
    List<Request> openOf(RequestKind kind, String subject);

    /**
     * The {@code PENDING} requests, oldest (creation order) first: registered, and written to the mailbox or not — a
     * lost confirmation leaves a request here until {@code RequestSender.confirmPending} settles it.
     */
    List<Request> pending();

    /**
     * Request {@code id} was answered by {@code responseMsgId}, matched by {@code mode}, processed at {@code at}:
     * {@code SENT → DONE}, {@code closedAt = at}. Only a {@code SENT} request moves; false (nothing changed) for
     * {@code PENDING}, for a closed request ({@code DONE}, {@code EXPIRED}: a late answer never changes it) or an
     * unknown ID.
     */
    boolean complete(long id, long responseMsgId, MatchMode mode, Instant at);

    /**
     * Every open ({@code PENDING}, {@code SENT}) request created strictly before {@code cutoff} becomes
     * {@code EXPIRED} with {@code closedAt = now}; closed requests are not touched. Returns how many expired.
     */
    int expireOpenBefore(Instant cutoff, Instant now);

    /**
     * The auto-committed request track of {@code store} ({@link PipelineStore#requests()}): every call runs as one
     * statement of {@code statements} (bound to auto-commit connections), except {@link #register} (expire the old
     * open request, insert the new one), which runs as one short transaction of its own; for the implementations.
     */
    static RequestTrack autoCommitted(PipelineStore store, RequestTrack statements) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(statements, "statements");
        return new RequestTrack() {
            @Override
            public Request register(RequestKind kind, String subject, LocalDate coverDay, String sender, String seqn,
                                    Instant windowStart, Instant windowEnd, Instant now) {
                return store.inTransaction(tx -> tx.requests().register(kind, subject, coverDay, sender, seqn,
                        windowStart, windowEnd, now));
            }

            @Override
            public boolean markSent(long id, long outMsgId, Instant sentAt) {
                return statements.markSent(id, outMsgId, sentAt);
            }

            @Override
            public Optional<Request> find(long id) {
                return statements.find(id);
            }

            @Override
            public Optional<Request> findBySeqn(String seqn) {
                return statements.findBySeqn(seqn);
            }

            @Override
            public Optional<String> lastSeqn() {
                return statements.lastSeqn();
            }

            @Override
            public List<String> openSeqns() {
                return statements.openSeqns();
            }

            @Override
            public List<Request> openOf(RequestKind kind, String subject) {
                return statements.openOf(kind, subject);
            }

            @Override
            public List<Request> pending() {
                return statements.pending();
            }

            @Override
            public boolean complete(long id, long responseMsgId, MatchMode mode, Instant at) {
                return statements.complete(id, responseMsgId, mode, at);
            }

            @Override
            public int expireOpenBefore(Instant cutoff, Instant now) {
                return statements.expireOpenBefore(cutoff, now);
            }
        };
    }

    /** Refuses what {@link #register} refuses (all but a used {@code seqn}); for the implementations. */
    static void requireRegistrable(RequestKind kind, String subject, LocalDate coverDay, String sender, String seqn,
                                   Instant windowStart, Instant windowEnd, Instant now) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(now, "now");
        if (kind == RequestKind.SCHEDULE) {
            if (subject != null) {
                throw new IllegalArgumentException("a schedule request has no subject, got '" + subject + "'");
            }
            if (coverDay == null) {
                throw new IllegalArgumentException("a schedule request needs the operation day it covers");
            }
            if (windowStart == null && windowEnd == null) {
                throw new IllegalArgumentException("a schedule request's window needs a start (STDB), an end (STDE) "
                        + "or both");
            }
        } else if (subject == null || subject.isBlank() || subject.length() > MAX_TYPE_LENGTH
                || subject.equals(RequestKind.SCHEDULE_TYPE)) {
            throw new IllegalArgumentException("a reference request's type '" + subject + "' must be 1 to "
                    + MAX_TYPE_LENGTH + " characters and not " + RequestKind.SCHEDULE_TYPE);
        }
        requireText("sender", sender, MAX_SENDER_LENGTH);
        requireText("seqn", seqn, MAX_SEQN_LENGTH);
        if (windowStart != null && windowEnd != null && windowEnd.isBefore(windowStart)) {
            throw new IllegalArgumentException("the request window ends (" + windowEnd + ") before it starts ("
                    + windowStart + ")");
        }
    }

    /** The refusal of a {@code seqn} another open request carries; for the implementations. */
    static IllegalArgumentException seqnInUse(String seqn, long otherId) {
        return new IllegalArgumentException("SEQN '" + seqn + "' is carried by open request " + otherId
                + ": every open request needs its own");
    }

    private static void requireText(String name, String value, int width) {
        if (value == null || value.isBlank() || value.length() > width) {
            throw new IllegalArgumentException(name + " '" + value + "' must be 1 to " + width + " characters");
        }
    }
}
