package io.msgx.pipeline.store;

import java.time.Instant;
import java.util.Optional;

/** {@code PROC_STATE}: the processing record of every enqueued mailbox message. */
public interface ProcStates {

    /**
     * Enqueue a message as {@code PENDING} unless a record with that ID exists; true when inserted. A second
     * insert of the same ID (a rescan, the compatibility entry racing the poller) is not an error.
     */
    boolean insertIfAbsent(long msgId, Instant receivedAt, Instant enqueuedAt);

    Optional<ProcRecord> find(long msgId);

    /** The head of the FIFO queue: the open ({@code PENDING} or {@code FAILED}) record with the smallest ID. */
    Optional<ProcRecord> head();

    /**
     * Bind {@code identityKey} to the message, one idempotent statement: binds when the message has none
     * (a message keeps the identity it was given on an earlier attempt), reports the holder when another
     * message holds it.
     */
    IdentityBinding bindIdentity(long msgId, String identityKey, Instant now);

    /**
     * End an open message with {@code terminal} and record the backfill intent (the mark is owed from
     * {@code now}) in the same statement. False when the message is not open (it ended already).
     */
    boolean finish(long msgId, Terminal terminal, Instant now);

    /**
     * Record a failed attempt of an open message: {@code FAILED}, attempts one more, the class and text,
     * and when to try again. False when the message is not open.
     */
    boolean recordFailure(long msgId, ErrorClass errorClass, String error, Instant nextAttemptAt, Instant now);

    /**
     * A {@code FAILED} message whose attempts are used up becomes {@code DEAD(EXHAUSTED)} with its backfill
     * intent, one statement; {@code LAST_ERROR} keeps the last failure's text. False when not FAILED.
     */
    boolean exhaust(long msgId, Instant now);

    /** Counts for the backlog gauges; {@code ARCHIVED} rows are not counted. */
    Backlog backlog();

    /** Open and terminal counts, and the enqueue time of the oldest open message (null when none). */
    record Backlog(long pending, long failed, long succeeded, long skipped, long dead, Instant oldestOpenEnqueuedAt) {
    }
}
