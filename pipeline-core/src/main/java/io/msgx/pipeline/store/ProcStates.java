package io.msgx.pipeline.store;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code PROC_STATE}: the processing record of every enqueued mailbox message. */
public interface ProcStates {

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
     * The record of the message holding business identity {@code identityKey} ({@code SNDR|TYPE|STYP|SEQN}, with
     * {@code |yyyyMMdd} when the day boundary is configured), for operators' look-ups. The default answers that
     * this store cannot; the stores override it with one statement.
     */
    default Optional<ProcRecord> findByIdentity(String identityKey) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot look a message up by identity");
    }

    /**
     * The records of these messages that exist, by ID. The default reads them one by one; a store overrides it
     * with one statement.
     */
    default Map<Long, ProcRecord> findAll(Collection<Long> msgIds) {
        var found = new LinkedHashMap<Long, ProcRecord>();
        msgIds.forEach(id -> find(id).ifPresent(record -> found.put(id, record)));
        return found;
    }

    /** Records in {@code status}, oldest mailbox ID first, at most {@code limit} (operators' listings). */
    List<ProcRecord> withStatus(ProcStatus status, int limit);

    /** The head of the FIFO queue: the open ({@code PENDING} or {@code FAILED}) record with the smallest ID. */
    Optional<ProcRecord> head();

    /**
     * The identity key most recently bound (the highest message ID that has one, archived shadows included); empty
     * when the store holds none. Start-up reads its shape to refuse a silent change of the identity algorithm (D-86).
     */
    Optional<String> latestIdentityKey();

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
     * Bind {@code identityKey} to the message, one idempotent statement: binds when the message has none
     * (a message keeps the identity it was given on an earlier attempt), reports the holder when another
     * message holds it.
     */
    IdentityBinding bindIdentity(long msgId, String identityKey, Instant now);

    /**
     * {@link #bindIdentity} for several messages, in the order given, so a later claim of an identity is held by
     * the earlier one; the result by message ID. Outside any business transaction, like the single binding. The
     * default binds one by one; a store overrides it with a few statements in one short transaction.
     */
    default Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
        var bindings = new LinkedHashMap<Long, IdentityBinding>();
        claims.forEach(c -> bindings.put(c.msgId(), bindIdentity(c.msgId(), c.identityKey(), now)));
        return bindings;
    }

    /** A message's claim to a business identity. */
    record IdentityClaim(long msgId, String identityKey) {
    }

    /**
     * End an open message with {@code terminal} and record the backfill intent (the mark is owed from
     * {@code now}) in the same statement. False when the message is not open (it ended already).
     */
    boolean finish(long msgId, Terminal terminal, Instant now);

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
    record Ending(long msgId, Terminal terminal) {
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

    // --- backfill: the processed mark owed to the shared mailbox (seeds §6) ---

    /**
     * Rows whose mark is owed and may be written now, with exactly the seeds' predicate: terminal
     * ({@code SUCCEEDED}, {@code SKIPPED}, {@code DEAD}; never {@code ARCHIVED}), {@code BACKFILL_AT} null,
     * not abandoned, and ({@code BACKFILL_NEXT_AT} null, or due by {@code now}, or {@code ENQUEUED_AT} before
     * {@code overdueBefore} = now − R, which overrides the backoff). Ordered by {@code BACKFILL_ATTEMPTS}, then
     * {@code MSG_ID}, so rows that keep failing cannot fill a batch; at most {@code limit}.
     */
    List<ProcRecord> backfillDue(Instant now, Instant overdueBefore, int limit);

    /** The mark is confirmed in the mailbox: {@code BACKFILL_AT = at}. False when already confirmed or abandoned. */
    boolean backfillConfirmed(long msgId, Instant at);

    /**
     * {@link #backfillConfirmed} for marks written together; returns how many were confirmed. The default confirms
     * one by one; a store overrides it with one statement.
     */
    default int backfillConfirmedAll(Collection<Long> msgIds, Instant at) {
        int confirmed = 0;
        for (long msgId : msgIds) {
            confirmed += backfillConfirmed(msgId, at) ? 1 : 0;
        }
        return confirmed;
    }

    /** A transient failure to write the mark: attempts one more, next try at {@code nextAt}. */
    boolean backfillFailed(long msgId, Instant nextAt, Instant now);

    /**
     * Stop retrying the mark automatically ({@code MISSING_ROW}, {@code TRANSIENT_DEADLINE}). Abandoned is not
     * marked: {@code BACKFILL_AT} stays null. False when already confirmed or abandoned.
     */
    boolean backfillAbandoned(long msgId, String reason, Instant at);

    /** Abandoned rows, oldest first, with whether each was reconciled, for the operators' reconciliation. */
    List<AbandonedMark> abandonedMarks(int limit);

    /**
     * An operator's reopening of abandoned rows: abandonment and any reconciliation cleared, due at once.
     * Returns the IDs reopened (rows not abandoned are left alone).
     */
    List<Long> reopenAbandoned(Collection<Long> msgIds, Instant now);

    /**
     * An operator confirms an abandoned row was settled by hand (the mailbox side checked or purged it): an
     * audited record of who, when and why. Only a reconciled abandoned row may be archived. False when the
     * row is not abandoned.
     */
    boolean reconcileAbandoned(long msgId, String operator, String note, Instant at);

    /** Marks owed (not abandoned), and abandoned rows with and without reconciliation. */
    BackfillBacklog backfillBacklog();

    /** An abandoned mark as listed for reconciliation. */
    record AbandonedMark(ProcRecord record, Instant reconciledAt, String reconciledBy, String note) {
    }

    record BackfillBacklog(long owed, long abandoned, long abandonedUnreconciled) {
    }

    // --- replay ---

    /**
     * The reason of a {@code FLOP} that arrived before its flight ({@code SKIPPED}, D-02): the one skip an operator may
     * replay, once the flight exists (D-87).
     */
    String UNKNOWN_FLIGHT = "no-match:unknown-flight";

    /**
     * Replay, one statement: the rows among {@code msgIds} that are {@code FAILED} or {@code DEAD} with an
     * error class in {@code replayable}, and those {@code SKIPPED} as {@value #UNKNOWN_FLIGHT} (D-87), go back to
     * {@code PENDING}; attempts, next attempt, error class and text are reset; {@code IDENTITY_KEY} is kept. Returns
     * the IDs replayed.
     */
    List<Long> replay(Collection<Long> msgIds, Set<ErrorClass> replayable, Instant now);

    // --- archive (seeds §9.3) ---

    /**
     * Terminal rows whose backfill is settled ({@code BACKFILL_AT} set, or abandoned and reconciled) and whose
     * last update ({@code UPDATED_AT}) is before {@code settledBefore}; oldest first, at most {@code limit}.
     */
    List<ProcRecord> archiveCandidates(Instant settledBefore, int limit);

    /**
     * Archive one candidate, in one transaction: copy the row to {@code PROC_STATE_HST}, then reduce it to
     * its dedup shadow ({@code STATE='ARCHIVED'}, only {@code MSG_ID} and {@code IDENTITY_KEY} kept) on the
     * condition that its state and {@code UPDATED_AT} are still the candidate's. False, with nothing
     * written, when the row changed meanwhile (a replay won).
     */
    boolean archive(ProcRecord candidate, Instant now);

    /** Forget dedup shadows archived before {@code cutoff} (the dedup memory has passed); at most {@code limit}. */
    int forgetArchivedBefore(Instant cutoff, int limit);

    /** Counts for the backlog gauges; {@code ARCHIVED} rows are not counted. */
    Backlog backlog();

    /** Open and terminal counts, and the enqueue time of the oldest open message (null when none). */
    record Backlog(long pending, long failed, long succeeded, long skipped, long dead, Instant oldestOpenEnqueuedAt) {
    }
}
