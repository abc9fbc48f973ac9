package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.record.ProcRecord;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

import static io.msgx.adapter.jdbc.ProcStateRows.ABANDONED;
import static io.msgx.adapter.jdbc.ProcStateRows.P_COLUMNS;
import static io.msgx.adapter.jdbc.ProcStateRows.TERMINAL;
import static io.msgx.adapter.jdbc.ProcStateRows.distinct;
import static io.msgx.adapter.jdbc.ProcStateRows.lockWhere;
import static io.msgx.adapter.jdbc.ProcStateRows.recordOf;

/**
 * The processed marks owed to the shared mailbox, on {@code PROC_STATE} ({@link BackfillMarks}): the marks due,
 * their confirmation, failure and abandonment, and the operators' reconciliations ({@code BACKFILL_RECONCILIATION});
 * {@link ProcStateRows} says what the {@code PROC_STATE} ports share and guarantee.
 */
public final class JdbcBackfillMarks implements BackfillMarks {

    private static final int ABANDONED_REASON_WIDTH = 64;
    private static final int NOTE_WIDTH = 2000;

    /** The statements' connection: auto-commit, or one transaction's. */
    private final StoreJdbc sql;
    /** A terminal row whose mark is still owed and not abandoned; never an archived shadow. */
    private final String owed;
    /** {@link #owed} for rows already named by {@code MSG_ID}, the state re-checked ({@link SqlDialect#recheck}). */
    private final String owedFoundByKey;

    public JdbcBackfillMarks(StoreJdbc sql) {
        this.sql = sql;
        this.owed = owed("p.STATE");
        this.owedFoundByKey = owed(sql.dialect().recheck("p.STATE"));
    }

    private static String owed(String state) {
        return state + " IN " + TERMINAL + " AND " + state + " <> 'ARCHIVED'"
                + " AND p.BACKFILL_AT IS NULL AND p.BACKFILL_ABANDONED_AT IS NULL";
    }

    @Override
    public List<ProcRecord> backfillDue(Instant now, Instant overdueBefore, int limit) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(overdueBefore, "overdueBefore");
        StoreJdbc.requireLimit(limit);
        // Exactly the seeds' §6.1 predicate; the overdue branch reads ENQUEUED_AT (ours), never RECEIVED_AT.
        return sql.run("scanning for backfill due at " + now, session -> session.list(sql.firstRows(
                        "SELECT " + P_COLUMNS + " FROM PROC_STATE p WHERE " + owed
                                + " AND (p.BACKFILL_NEXT_AT IS NULL OR p.BACKFILL_NEXT_AT <= ? OR p.ENQUEUED_AT < ?)"
                                + " ORDER BY p.BACKFILL_ATTEMPTS, p.MSG_ID"),
                ProcStateRows::recordOf, now, overdueBefore, limit));
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
     * The confirmation of the owed marks of the messages {@code keys} names (a {@link StoreJdbc#oneOf} on {@code p.MSG_ID});
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
        StoreJdbc.requireLimit(limit);
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
            var reopened = lockWhere(sql, session, ids, ABANDONED);
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
}
