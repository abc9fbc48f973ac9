package io.msgx.pipeline.port;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The FIFO queue of {@code PROC_STATE}: enqueueing mailbox messages, the head and the run a group may take, and ending
 * or failing an open message. Every state change is one conditional statement whose answer says whether it won.
 */
public interface MessageQueue {

    /**
     * Enqueue a message as {@code PENDING} unless a record with that ID exists; true when inserted. A second
     * insert of the same ID (a rescan, the compatibility entry racing the poller) is not an error.
     */
    boolean insertIfAbsent(long msgId, Instant receivedAt, Instant enqueuedAt);

    /**
     * {@link #insertIfAbsent} for several messages, {@code receivedAt} by ID (a null value is allowed); returns how
     * many were inserted. The default inserts one by one; a store overrides it with one batch.
     */
    default int insertAllIfAbsent(Map<Long, Instant> receivedAt, Instant enqueuedAt) {
        int inserted = 0;
        for (var message : receivedAt.entrySet()) {
            inserted += insertIfAbsent(message.getKey(), message.getValue(), enqueuedAt) ? 1 : 0;
        }
        return inserted;
    }

    Optional<ProcRecord> find(long msgId);

    /**
     * The records of these messages that exist, by ID. The default reads them one by one; a store overrides it
     * with one statement.
     */
    default Map<Long, ProcRecord> findAll(Collection<Long> msgIds) {
        var found = new LinkedHashMap<Long, ProcRecord>();
        msgIds.forEach(id -> find(id).ifPresent(record -> found.put(id, record)));
        return found;
    }

    /** The head of the FIFO queue: the open ({@code PENDING} or {@code FAILED}) record with the smallest ID. */
    Optional<ProcRecord> head();

    /**
     * The run of the queue a group may take: the open records from the head on, in FIFO order, stopping before
     * the first {@code FAILED} one (a failed message goes alone, with its backoff) and before any ID above
     * {@code watermark}; at most {@code limit}. Empty when the head is {@code FAILED} or above the watermark.
     * The default returns the head alone; a store overrides it with one statement.
     */
    default List<ProcRecord> pendingRun(long watermark, int limit) {
        return head().filter(h -> h.status() == ProcStatus.PENDING && h.msgId() <= watermark)
                .map(List::of).orElse(List.of());
    }

    /**
     * End an open message with {@code terminal} and record the backfill intent (the mark is owed from
     * {@code now}) in the same statement. False when the message is not open (it ended already).
     */
    boolean finish(long msgId, MessageEnd terminal, Instant now);

    /**
     * {@link #finish} for several messages, inside the caller's transaction; returns how many ended (a message
     * no longer open is not counted). The default ends them one by one; a store overrides it with one batch.
     */
    default int finishAll(List<Ending> endings, Instant now) {
        int ended = 0;
        for (var ending : endings) {
            ended += finish(ending.msgId(), ending.terminal(), now) ? 1 : 0;
        }
        return ended;
    }

    /** How one message ends. */
    record Ending(long msgId, MessageEnd terminal) {
    }

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
}
