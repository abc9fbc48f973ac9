package io.msgx.adapter.jdbc;


import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.IdentityBinder;
import io.msgx.pipeline.store.IdentityBinding;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.pipeline.store.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The {@code PROC_STATE} ports ({@link MessageQueue}, {@link IdentityRegister}, {@link BackfillMarks},
 * {@link MessageReplays}, {@link MessageArchive}, {@link MessageQueries}) on {@code PROC_STATE}. Every state change
 * is one conditional UPDATE whose row count is the answer ("false when not open"), so two racing writers can never
 * both win. Used either per statement in auto-commit, or bound to one transaction.
 *
 * <p>The operations of more than one statement (a batch enqueue; clearing abandonment and replay: Oracle 11g has
 * no {@code UPDATE ... RETURNING} into a list, so the rows are first locked with {@code SELECT ... FOR UPDATE}) are
 * atomic: in auto-commit they run in a transaction of their own (never holding {@code PIPELINE_LOCK}); bound to a
 * caller's transaction they run under a savepoint, so a refusal undoes only their own writes. A store may replace
 * the batched statements with its own (PostgreSQL's {@code unnest} arrays); the answers stay those written here.
 *
 * <p>Empty texts on Oracle ('' is NULL there): an empty {@code LAST_ERROR} reads back as null (no text, as
 * {@code Terminal.succeeded(null)}); an empty abandonment reason of an abandoned row reads back as {@code ""}
 * ({@code BACKFILL_ABANDONED_AT} tells that the row is abandoned); an empty reconciliation note reads back as null;
 * an empty identity key is refused (NULL means "no identity" and would bind nothing).
 */
public class JdbcProcStates
        implements MessageQueue, IdentityRegister, BackfillMarks, MessageReplays, MessageArchive, MessageQueries {

    /** Every column of {@code PROC_STATE}, as {@link #recordOf} reads them. */
    public static final String COLUMNS = "MSG_ID, STATE, IDENTITY_KEY, ATTEMPTS, NEXT_ATTEMPT_AT, ERROR_CLASS, "
            + "LAST_ERROR, RECEIVED_AT, ENQUEUED_AT, UPDATED_AT, BACKFILL_NEXT_AT, BACKFILL_AT, BACKFILL_ATTEMPTS, "
            + "BACKFILL_ABANDONED_AT, BACKFILL_ABANDONED_REASON, BACKFILL_FAILING_SINCE";
    private static final String P_COLUMNS = "p." + COLUMNS.replace(", ", ", p.");

    /** The open states, as an IN list. */
    protected static final String OPEN = "('PENDING', 'FAILED')";
    private static final String TERMINAL = "('SUCCEEDED', 'SKIPPED', 'DEAD')";
    /** An abandoned terminal row (reconciled or not); never an archived shadow. */
    private static final String ABANDONED = "p.STATE IN " + TERMINAL + " AND p.STATE <> 'ARCHIVED'"
            + " AND p.BACKFILL_AT IS NULL AND p.BACKFILL_ABANDONED_AT IS NOT NULL";
    /** Backfill settled: the mark confirmed, or abandoned and reconciled by an operator. */
    private static final String SETTLED = "(p.BACKFILL_AT IS NOT NULL OR (p.BACKFILL_ABANDONED_AT IS NOT NULL"
            + " AND EXISTS (SELECT 1 FROM BACKFILL_RECONCILIATION s WHERE s.MSG_ID = p.MSG_ID)))";

    /** The conditional end of one open message with its backfill intent (owed from now). */
    private static final String FINISH = "UPDATE PROC_STATE SET STATE = ?, ERROR_CLASS = ?, LAST_ERROR = ?,"
            + " UPDATED_AT = ?, BACKFILL_NEXT_AT = ? WHERE MSG_ID = ? AND STATE IN " + OPEN;

    private static final int ABANDONED_REASON_WIDTH = 64;
    private static final int NOTE_WIDTH = 2000;
    /** The width of {@code LAST_ERROR}. */
    protected static final int LAST_ERROR_WIDTH = 2000;

    private static final Logger LOG = LoggerFactory.getLogger(JdbcProcStates.class);

    /** The statements' connection: auto-commit, or one transaction's. */
    protected final Sql sql;
    /** A terminal row whose mark is still owed and not abandoned; never an archived shadow. */
    private final String owed;
    /** {@link #owed} for rows already named by {@code MSG_ID}, the state re-checked ({@link SqlDialect#recheck}). */
    private final String owedFoundByKey;
    /** Enqueue one message as PENDING unless its row exists. */
    private final SqlDialect.RowStatement enqueue;

    public JdbcProcStates(Sql sql) {
        this.sql = sql;
        this.owed = owed("p.STATE");
        this.owedFoundByKey = owed(sql.dialect().recheck("p.STATE"));
        this.enqueue = sql.dialect().insertUnlessPresent("PROC_STATE", 1, "MSG_ID", "STATE", "ATTEMPTS", "RECEIVED_AT",
                "ENQUEUED_AT", "UPDATED_AT", "BACKFILL_ATTEMPTS");
    }

    private static String owed(String state) {
        return state + " IN " + TERMINAL + " AND " + state + " <> 'ARCHIVED'"
                + " AND p.BACKFILL_AT IS NULL AND p.BACKFILL_ABANDONED_AT IS NULL";
    }

    private Object[] enqueueing(long msgId, Instant receivedAt, Instant enqueuedAt) {
        return enqueue.params(msgId, ProcStatus.PENDING.name(), 0, receivedAt, enqueuedAt, enqueuedAt, 0);
    }

    @Override
    public boolean insertIfAbsent(long msgId, Instant receivedAt, Instant enqueuedAt) {
        return sql.runOrRecover("enqueueing message " + msgId,
                session -> session.update(enqueue.sql(), enqueueing(msgId, receivedAt, enqueuedAt)) == 1,
                failure -> {
                    if (sql.failures().isUniqueViolation(failure)) {
                        return false; // a concurrent enqueue of the same message won between the probe and the insert
                    }
                    throw failure;
                });
    }

    /**
     * One JDBC batch of {@link #insertIfAbsent}'s MERGE, atomically (a savepoint inside the caller's transaction).
     * Should a concurrent enqueue of one of the IDs win between a MERGE's probe and its insert (a unique violation),
     * the batch is undone and the messages are enqueued one by one, which settles such races.
     */
    @Override
    public int insertAllIfAbsent(Map<Long, Instant> receivedAt, Instant enqueuedAt) {
        if (receivedAt.isEmpty()) {
            return 0;
        }
        try {
            return sql.atomically("enqueueing " + receivedAt.size() + " message(s)", session -> {
                try (var batch = session.batch(enqueue.sql())) {
                    for (var message : receivedAt.entrySet()) {
                        batch.add(enqueueing(message.getKey(), message.getValue(), enqueuedAt));
                    }
                    return batch.executeCounting();
                } catch (SQLException e) {
                    if (sql.failures().holdsUniqueViolation(e)) {
                        throw new EnqueueRaceLost();
                    }
                    throw e;
                }
            }, inserted -> true);
        } catch (EnqueueRaceLost e) {
            LOG.debug("A concurrent enqueue won a race within a batch of {} messages: enqueueing them one by one",
                    receivedAt.size());
            return MessageQueue.super.insertAllIfAbsent(receivedAt, enqueuedAt);
        }
    }

    /** Undoes the batch (its savepoint or its own transaction) before the one-by-one retry. */
    private static final class EnqueueRaceLost extends RuntimeException {
        EnqueueRaceLost() {
            super(null, null, false, false);
        }
    }

    @Override
    public Optional<ProcRecord> find(long msgId) {
        return sql.run("reading the processing record of message " + msgId, session -> session.one(
                "SELECT " + COLUMNS + " FROM PROC_STATE WHERE MSG_ID = ?", JdbcProcStates::recordOf, msgId));
    }

    @Override
    public Optional<ProcRecord> findByIdentity(String identityKey) {
        return sql.run("reading the processing record of identity " + identityKey, session -> session.one(
                "SELECT " + COLUMNS + " FROM PROC_STATE WHERE IDENTITY_KEY = ?", JdbcProcStates::recordOf,
                identityKey));
    }

    @Override
    public List<ProcRecord> withStatus(ProcStatus status, int limit) {
        return sql.run("listing " + status + " messages", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM PROC_STATE WHERE STATE = ? ORDER BY MSG_ID"),
                JdbcProcStates::recordOf, status.name(), limit));
    }

    /** One statement per {@link Sql#oneOf} condition; the result in the order the IDs were given. */
    @Override
    public Map<Long, ProcRecord> findAll(Collection<Long> msgIds) {
        if (msgIds.isEmpty()) {
            return Map.of();
        }
        var ids = new LinkedHashSet<>(msgIds);
        var byId = sql.run("reading the processing records of " + ids.size() + " message(s)", session -> {
            var read = new HashMap<Long, ProcRecord>();
            for (var in : sql.oneOf("MSG_ID", KeyLookup.BY_JOIN, ids)) {
                for (var record : session.list("SELECT " + COLUMNS + " FROM PROC_STATE WHERE " + in.sql(),
                        JdbcProcStates::recordOf, in)) {
                    read.put(record.msgId(), record);
                }
            }
            return read;
        });
        var found = new LinkedHashMap<Long, ProcRecord>();
        ids.forEach(id -> {
            var record = byId.get(id);
            if (record != null) {
                found.put(id, record);
            }
        });
        return found;
    }

    /**
     * One query: the open rows up to the watermark in FIFO order, {@code ROWNUM}-limited; the run is cut in Java
     * before the first {@code FAILED} one (a head above the watermark leaves no row at all).
     */
    @Override
    public List<ProcRecord> pendingRun(long watermark, int limit) {
        Sql.requireLimit(limit);
        var open = sql.run("reading the pending run from the head", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM PROC_STATE WHERE STATE IN " + OPEN
                                + " AND STATE <> 'ARCHIVED' AND MSG_ID <= ? ORDER BY MSG_ID"),
                JdbcProcStates::recordOf, watermark, limit));
        var run = new ArrayList<ProcRecord>(open.size());
        for (var record : open) {
            if (record.status() != ProcStatus.PENDING) {
                break;
            }
            run.add(record);
        }
        return run;
    }

    @Override
    public Optional<ProcRecord> head() {
        // ARCHIVED is excluded explicitly, not only by the open states listed (seeds §9.3).
        return sql.run("reading the head of the queue", session -> session.one(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM PROC_STATE WHERE STATE IN " + OPEN
                                + " AND STATE <> 'ARCHIVED' ORDER BY MSG_ID"),
                JdbcProcStates::recordOf, 1));
    }

    @Override
    public Optional<String> latestIdentityKey() {
        return sql.run("reading the latest identity key", session -> session.one(sql.firstRows(
                        "SELECT IDENTITY_KEY FROM PROC_STATE WHERE IDENTITY_KEY IS NOT NULL ORDER BY MSG_ID DESC"),
                row -> row.text("IDENTITY_KEY"), 1));
    }

    @Override
    public OptionalLong holderOf(String identityKey) {
        return sql.run("reading the holder of identity " + identityKey, session -> session.one(
                "SELECT MSG_ID FROM PROC_STATE WHERE IDENTITY_KEY = ?", row -> row.longValue("MSG_ID"), identityKey)
                .map(OptionalLong::of).orElse(OptionalLong.empty()));
    }

    @Override
    public BindAttempt bindIfUnbound(long msgId, String identityKey, Instant now) {
        Objects.requireNonNull(identityKey, "identityKey");
        if (identityKey.isEmpty() && sql.dialect().storesEmptyTextAsNull()) {
            throw new IllegalArgumentException("message " + msgId + ": an empty identity key cannot be bound (Oracle "
                    + "stores '' as NULL, which means no identity); the codec must derive SNDR|TYPE|STYP|SEQN");
        }
        return sql.runOrRecover("binding identity " + identityKey + " to message " + msgId,
                session -> session.update("UPDATE PROC_STATE SET IDENTITY_KEY = ?, UPDATED_AT = ?"
                        + " WHERE MSG_ID = ? AND IDENTITY_KEY IS NULL", identityKey, now, msgId) == 1
                        ? BindAttempt.BOUND : BindAttempt.UNCHANGED,
                failure -> {
                    if (sql.failures().isUniqueViolation(failure)) {
                        return BindAttempt.TAKEN;
                    }
                    throw failure;
                });
    }

    @Override
    public Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
        return IdentityBinder.bindEach(this, this, claims, now);
    }

    @Override
    public boolean finish(long msgId, Terminal terminal, Instant now) {
        return sql.run("ending message " + msgId + " as " + terminal.status(), session -> session.update(FINISH,
                terminal.status().name(), terminal.errorClass() == null ? null : terminal.errorClass().name(),
                sql.fitted(terminal.reason(), LAST_ERROR_WIDTH), now, now, msgId) == 1);
    }

    /** {@link #finish}'s statement as one JDBC batch (one round trip), its row counts summed. */
    @Override
    public int finishAll(List<Ending> endings, Instant now) {
        if (endings.isEmpty()) {
            return 0;
        }
        return sql.run("ending " + endings.size() + " message(s) from " + endings.get(0).msgId(), session -> {
            try (var batch = session.batch(FINISH)) {
                for (var ending : endings) {
                    var terminal = ending.terminal();
                    batch.add(terminal.status().name(),
                            terminal.errorClass() == null ? null : terminal.errorClass().name(),
                            sql.fitted(terminal.reason(), LAST_ERROR_WIDTH), now, now, ending.msgId());
                }
                return batch.executeCounting();
            }
        });
    }

    @Override
    public boolean recordFailure(long msgId, ErrorClass errorClass, String error, Instant nextAttemptAt, Instant now) {
        return sql.run("recording a failed attempt of message " + msgId, session -> session.update(
                "UPDATE PROC_STATE SET STATE = 'FAILED', ATTEMPTS = ATTEMPTS + 1, ERROR_CLASS = ?, LAST_ERROR = ?,"
                        + " NEXT_ATTEMPT_AT = ?, UPDATED_AT = ? WHERE MSG_ID = ? AND STATE IN " + OPEN,
                errorClass.name(), sql.fitted(error, LAST_ERROR_WIDTH), nextAttemptAt, now, msgId) == 1);
    }

    @Override
    public boolean exhaust(long msgId, Instant now) {
        return sql.run("ending message " + msgId + " as DEAD(EXHAUSTED)", session -> session.update(
                "UPDATE PROC_STATE SET STATE = 'DEAD', ERROR_CLASS = 'EXHAUSTED', UPDATED_AT = ?, BACKFILL_NEXT_AT = ?"
                        + " WHERE MSG_ID = ? AND STATE = 'FAILED'", now, now, msgId) == 1);
    }

    // --- backfill ---

    @Override
    public List<ProcRecord> backfillDue(Instant now, Instant overdueBefore, int limit) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(overdueBefore, "overdueBefore");
        Sql.requireLimit(limit);
        // Exactly the seeds' §6.1 predicate; the overdue branch reads ENQUEUED_AT (ours), never RECEIVED_AT.
        return sql.run("scanning for backfill due at " + now, session -> session.list(sql.firstRows(
                        "SELECT " + P_COLUMNS + " FROM PROC_STATE p WHERE " + owed
                                + " AND (p.BACKFILL_NEXT_AT IS NULL OR p.BACKFILL_NEXT_AT <= ? OR p.ENQUEUED_AT < ?)"
                                + " ORDER BY p.BACKFILL_ATTEMPTS, p.MSG_ID"),
                JdbcProcStates::recordOf, now, overdueBefore, limit));
    }

    @Override
    public boolean backfillConfirmed(long msgId, Instant at) {
        Objects.requireNonNull(at, "at");
        return sql.run("confirming the mailbox mark of message " + msgId, session -> session.update(
                "UPDATE PROC_STATE p SET BACKFILL_AT = ?, BACKFILL_NEXT_AT = NULL, BACKFILL_FAILING_SINCE = NULL,"
                        + " UPDATED_AT = ? WHERE p.MSG_ID = ? AND " + owedFoundByKey, at, at, msgId) == 1);
    }

    /** {@link #backfillConfirmed} as one {@link #confirmingMarks} per chunk of IDs. */
    @Override
    public int backfillConfirmedAll(Collection<Long> msgIds, Instant at) {
        Objects.requireNonNull(at, "at");
        if (msgIds.isEmpty()) {
            return 0;
        }
        return sql.run("confirming the mailbox marks of " + msgIds.size() + " message(s)", session -> {
            int confirmed = 0;
            for (var in : sql.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, new LinkedHashSet<>(msgIds))) {
                confirmed += session.update(confirmingMarks(in.sql()), at, at, in);
            }
            return confirmed;
        });
    }

    /**
     * The confirmation of the owed marks of the messages {@code keys} names (a {@link Sql#oneOf} on {@code p.MSG_ID});
     * bound: at, at, the keys. Public for the plan checks of the tests.
     */
    public String confirmingMarks(String keys) {
        return "UPDATE PROC_STATE p SET BACKFILL_AT = ?, BACKFILL_NEXT_AT = NULL, BACKFILL_FAILING_SINCE = NULL,"
                + " UPDATED_AT = ? WHERE " + keys + " AND " + owedFoundByKey;
    }

    /** The first failure of an owed mark sets {@code BACKFILL_FAILING_SINCE}; the later ones keep it. */
    @Override
    public boolean backfillFailed(long msgId, Instant nextAt, Instant now) {
        Objects.requireNonNull(now, "now");
        return sql.run("recording a failed mailbox mark of message " + msgId, session -> session.update(
                "UPDATE PROC_STATE p SET BACKFILL_ATTEMPTS = BACKFILL_ATTEMPTS + 1, BACKFILL_NEXT_AT = ?,"
                        + " BACKFILL_FAILING_SINCE = COALESCE(BACKFILL_FAILING_SINCE, ?), UPDATED_AT = ?"
                        + " WHERE p.MSG_ID = ? AND " + owedFoundByKey, nextAt, now, now, msgId) == 1);
    }

    @Override
    public boolean backfillAbandoned(long msgId, String reason, Instant at) {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(at, "at");
        var operation = "abandoning the mailbox mark of message " + msgId + " (" + reason + ")";
        return sql.run(operation, session -> session.update(
                "UPDATE PROC_STATE p SET BACKFILL_ABANDONED_AT = ?, BACKFILL_ABANDONED_REASON = ?, UPDATED_AT = ?"
                        + " WHERE p.MSG_ID = ? AND " + owedFoundByKey,
                at, sql.fitted(reason, ABANDONED_REASON_WIDTH), at, msgId) == 1);
    }

    @Override
    public List<AbandonedMark> abandonedMarks(int limit) {
        Sql.requireLimit(limit);
        return sql.run("listing abandoned mailbox marks", session -> session.list(sql.firstRows(
                        "SELECT " + P_COLUMNS + ", r.RECONCILED_AT, r.OPERATOR, r.NOTE FROM PROC_STATE p"
                                + " LEFT JOIN BACKFILL_RECONCILIATION r ON r.MSG_ID = p.MSG_ID WHERE " + ABANDONED
                                + " ORDER BY p.BACKFILL_ABANDONED_AT, p.MSG_ID"),
                row -> new AbandonedMark(recordOf(row), row.instant("RECONCILED_AT"), row.text("OPERATOR"),
                        row.text("NOTE")), limit));
    }

    @Override
    public List<Long> clearAbandonment(Collection<Long> msgIds, Instant now) {
        Objects.requireNonNull(now, "now");
        var ids = distinct(msgIds);
        if (ids.isEmpty()) {
            return List.of();
        }
        // Oracle returns no keys from a multi-row UPDATE: the rows are locked and listed first, then updated.
        return sql.atomically("reopening " + ids.size() + " abandoned mailbox mark(s)", session -> {
            var reopened = lockWhere(session, ids, ABANDONED);
            for (var in : sql.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, reopened)) {
                session.update("UPDATE PROC_STATE p SET BACKFILL_ABANDONED_AT = NULL, BACKFILL_ABANDONED_REASON = NULL,"
                        + " BACKFILL_FAILING_SINCE = NULL, BACKFILL_NEXT_AT = ?, UPDATED_AT = ? WHERE " + in.sql(),
                        now, now, in);
            }
            return reopened;
        }, reopened -> true);
    }

    @Override
    public void forgetReconciliations(Collection<Long> msgIds) {
        var ids = distinct(msgIds);
        if (ids.isEmpty()) {
            return;
        }
        sql.run("forgetting " + ids.size() + " reconciliation(s)", session -> {
            for (var in : sql.oneOf("MSG_ID", KeyLookup.BY_INDEX, ids)) {
                session.update("DELETE FROM BACKFILL_RECONCILIATION WHERE " + in.sql(), in);
            }
            return null;
        });
    }

    @Override
    public boolean touchAbandoned(long msgId, Instant at) {
        Objects.requireNonNull(at, "at");
        return sql.run("settling the abandoned mailbox mark of message " + msgId, session -> session.update(
                "UPDATE PROC_STATE p SET UPDATED_AT = ? WHERE p.MSG_ID = ? AND " + ABANDONED, at, msgId) == 1);
    }

    @Override
    public void recordReconciliation(long msgId, String operator, String note, Instant at) {
        var record = sql.dialect().upsert("BACKFILL_RECONCILIATION", 1, "MSG_ID", "RECONCILED_AT", "OPERATOR", "NOTE");
        sql.run("recording the reconciliation of message " + msgId, session -> session.update(record.sql(),
                record.params(msgId, at, operator, sql.fitted(note, NOTE_WIDTH))));
    }

    @Override
    public BackfillBacklog backfillBacklog() {
        return sql.run("counting the backfill backlog", session -> session.one(
                "SELECT COUNT(CASE WHEN p.BACKFILL_ABANDONED_AT IS NULL THEN 1 END) AS OWED,"
                        + " COUNT(CASE WHEN p.BACKFILL_ABANDONED_AT IS NOT NULL THEN 1 END) AS ABANDONED,"
                        + " COUNT(CASE WHEN p.BACKFILL_ABANDONED_AT IS NOT NULL AND r.MSG_ID IS NULL THEN 1 END)"
                        + " AS UNRECONCILED"
                        + " FROM PROC_STATE p LEFT JOIN BACKFILL_RECONCILIATION r ON r.MSG_ID = p.MSG_ID"
                        + " WHERE p.STATE IN " + TERMINAL + " AND p.STATE <> 'ARCHIVED' AND p.BACKFILL_AT IS NULL",
                row -> new BackfillBacklog(row.longValue("OWED"), row.longValue("ABANDONED"),
                        row.longValue("UNRECONCILED"))).orElseThrow());
    }

    // --- replay ---

    @Override
    public List<Long> replay(Collection<Long> msgIds, Set<ErrorClass> replayable, Instant now) {
        Objects.requireNonNull(now, "now");
        var ids = distinct(msgIds);
        if (ids.isEmpty()) {
            return List.of();
        }
        var classes = replayable.stream().map(ErrorClass::name).sorted().toList();
        var failedOrDead = classes.isEmpty() ? "1 = 0" : "p.STATE IN ('FAILED', 'DEAD') AND p.ERROR_CLASS IN ("
                + String.join(", ", classes.stream().map(c -> "'" + c + "'").toList()) + ")";
        var replayableRow = "((" + failedOrDead + ") OR (p.STATE = 'SKIPPED' AND p.LAST_ERROR = '"
                + MessageReplays.UNKNOWN_FLIGHT + "') OR (p.STATE = 'SUCCEEDED' AND p.LAST_ERROR LIKE '%"
                + MessageReplays.UNKNOWN_FLIGHTS_OF_A_BATCH + "%'))";
        return sql.atomically("replaying " + ids.size() + " message(s) of classes " + classes, session -> {
            var replayed = lockWhere(session, ids, replayableRow);
            for (var in : sql.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, replayed)) {
                // The failures of the mark owed before the replay do not count against the one owed after it.
                // A batch applied in part keeps its outcome: it names the bodies the replay owes (D-118).
                session.update("UPDATE PROC_STATE p SET STATE = 'PENDING', ATTEMPTS = 0, NEXT_ATTEMPT_AT = NULL,"
                        + " ERROR_CLASS = NULL, LAST_ERROR = CASE WHEN p.STATE = 'SUCCEEDED' THEN p.LAST_ERROR END,"
                        + " BACKFILL_FAILING_SINCE = NULL, UPDATED_AT = ?"
                        + " WHERE " + in.sql(), now, in);
            }
            return replayed;
        }, replayed -> true);
    }

    /** Lock the rows among {@code ids} that match {@code condition}; their IDs, ascending. */
    private List<Long> lockWhere(Sql.Session session, List<Long> ids, String condition) throws SQLException {
        var locked = new ArrayList<Long>();
        for (var in : sql.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, ids)) {
            locked.addAll(session.list("SELECT p.MSG_ID FROM PROC_STATE p WHERE " + in.sql() + " AND " + condition
                    + " FOR UPDATE", row -> row.longValue("MSG_ID"), in));
        }
        locked.sort(null);
        return List.copyOf(locked);
    }

    // --- archive ---

    @Override
    public List<ProcRecord> archiveCandidates(Instant settledBefore, int limit) {
        Objects.requireNonNull(settledBefore, "settledBefore");
        Sql.requireLimit(limit);
        return sql.run("listing archive candidates settled before " + settledBefore, session -> session.list(
                sql.firstRows("SELECT " + P_COLUMNS + " FROM PROC_STATE p WHERE p.STATE IN " + TERMINAL
                        + " AND p.STATE <> 'ARCHIVED' AND " + SETTLED + " AND p.UPDATED_AT < ?"
                        + " ORDER BY p.UPDATED_AT, p.MSG_ID"),
                JdbcProcStates::recordOf, settledBefore, limit));
    }

    /** The candidate's row as it was listed: same state and last update (a replay or a reopening changes both). */
    private static final String AS_LISTED = "p.MSG_ID = ? AND p.STATE = ? AND p.UPDATED_AT = ?";

    private static List<Object> asListed(ProcRecord candidate) {
        return List.of(candidate.msgId(), candidate.status().name(), candidate.updatedAt());
    }

    @Override
    public boolean copyToHistory(ProcRecord candidate, Instant now) {
        Objects.requireNonNull(now, "now");
        return sql.run("copying the processing record of message " + candidate.msgId() + " to its history",
                session -> session.update("INSERT INTO PROC_STATE_HST (" + COLUMNS + ", ARCHIVED_AT, RECONCILED_AT,"
                                + " RECONCILED_BY, RECONCILIATION_NOTE) SELECT " + P_COLUMNS + ", ?, r.RECONCILED_AT,"
                                + " r.OPERATOR, r.NOTE FROM PROC_STATE p"
                                + " LEFT JOIN BACKFILL_RECONCILIATION r ON r.MSG_ID = p.MSG_ID"
                                + " WHERE " + AS_LISTED + " AND p.STATE IN " + TERMINAL + " AND " + SETTLED,
                        params(List.of(now), asListed(candidate))) == 1);
    }

    @Override
    public boolean reduceToShadow(ProcRecord candidate, Instant now) {
        Objects.requireNonNull(now, "now");
        return sql.run("reducing the processing record of message " + candidate.msgId() + " to its shadow",
                session -> session.update("UPDATE PROC_STATE p SET STATE = 'ARCHIVED', ATTEMPTS = 0,"
                                + " NEXT_ATTEMPT_AT = NULL, ERROR_CLASS = NULL, LAST_ERROR = NULL, RECEIVED_AT = NULL,"
                                + " UPDATED_AT = ?, BACKFILL_NEXT_AT = NULL, BACKFILL_AT = NULL, BACKFILL_ATTEMPTS = 0,"
                                + " BACKFILL_ABANDONED_AT = NULL, BACKFILL_ABANDONED_REASON = NULL,"
                                + " BACKFILL_FAILING_SINCE = NULL WHERE " + AS_LISTED,
                        params(List.of(now), asListed(candidate))) == 1);
    }

    @Override
    public int forgetArchivedBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        return sql.deleteFirst("forgetting dedup shadows archived before " + cutoff,
                "PROC_STATE", "MSG_ID", "STATE = 'ARCHIVED' AND UPDATED_AT < ?", "UPDATED_AT, MSG_ID", limit, cutoff);
    }

    @Override
    public Backlog backlog() {
        return sql.run("counting the backlog", session -> session.one(
                "SELECT COUNT(CASE WHEN STATE = 'PENDING' THEN 1 END) AS PENDING,"
                        + " COUNT(CASE WHEN STATE = 'FAILED' THEN 1 END) AS FAILED,"
                        + " COUNT(CASE WHEN STATE = 'SUCCEEDED' THEN 1 END) AS SUCCEEDED,"
                        + " COUNT(CASE WHEN STATE = 'SKIPPED' THEN 1 END) AS SKIPPED,"
                        + " COUNT(CASE WHEN STATE = 'DEAD' THEN 1 END) AS DEAD,"
                        + " MIN(CASE WHEN STATE IN " + OPEN + " THEN ENQUEUED_AT END) AS OLDEST_OPEN"
                        + " FROM PROC_STATE WHERE STATE <> 'ARCHIVED'",
                row -> new Backlog(row.longValue("PENDING"), row.longValue("FAILED"), row.longValue("SUCCEEDED"),
                        row.longValue("SKIPPED"), row.longValue("DEAD"), row.instant("OLDEST_OPEN"))).orElseThrow());
    }

    private static List<Long> distinct(Collection<Long> msgIds) {
        return msgIds.stream().filter(Objects::nonNull).distinct().toList();
    }

    private static Object[] params(List<?> first, List<?> rest) {
        var all = new ArrayList<Object>(first);
        all.addAll(rest);
        return all.toArray();
    }

    /** The record of the current row (columns {@link #COLUMNS}), read by {@link Sql.Row}. */
    public static ProcRecord recordOf(Sql.Row row) throws SQLException {
        var errorClass = row.text("ERROR_CLASS");
        var abandonedAt = row.instant("BACKFILL_ABANDONED_AT");
        var abandonedReason = row.text("BACKFILL_ABANDONED_REASON");
        return new ProcRecord(
                row.longValue("MSG_ID"),
                ProcStatus.valueOf(row.text("STATE")),
                row.text("IDENTITY_KEY"),
                row.intValue("ATTEMPTS"),
                row.instant("NEXT_ATTEMPT_AT"),
                errorClass == null ? null : ErrorClass.valueOf(errorClass),
                row.text("LAST_ERROR"),
                row.instant("RECEIVED_AT"),
                row.instant("ENQUEUED_AT"),
                row.instant("UPDATED_AT"),
                row.instant("BACKFILL_NEXT_AT"),
                row.instant("BACKFILL_AT"),
                row.intValue("BACKFILL_ATTEMPTS"),
                abandonedAt,
                // An abandoned row always has a reason: NULL here is the empty reason Oracle stored as NULL.
                abandonedAt != null && abandonedReason == null ? "" : abandonedReason,
                row.instant("BACKFILL_FAILING_SINCE"));
    }
}
