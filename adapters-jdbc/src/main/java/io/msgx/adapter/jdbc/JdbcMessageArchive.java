package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.record.ProcRecord;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static io.msgx.adapter.jdbc.ProcStateRows.COLUMNS;
import static io.msgx.adapter.jdbc.ProcStateRows.P_COLUMNS;
import static io.msgx.adapter.jdbc.ProcStateRows.SETTLED;
import static io.msgx.adapter.jdbc.ProcStateRows.TERMINAL;

/**
 * The archive of settled processing records ({@link MessageArchive}): the candidates, their copy to
 * {@code PROC_STATE_HST}, their reduction to a dedup shadow, and the cleanup of old shadows ({@link ProcStateRows}
 * says what the {@code PROC_STATE} ports share and guarantee).
 */
public class JdbcMessageArchive implements MessageArchive {

    /** The statements' connection: auto-commit, or one transaction's. */
    protected final StoreJdbc sql;

    public JdbcMessageArchive(StoreJdbc sql) {
        this.sql = sql;
    }

    @Override
    public List<ProcRecord> archiveCandidates(Instant settledBefore, int limit) {
        Objects.requireNonNull(settledBefore, "settledBefore");
        StoreJdbc.requireLimit(limit);
        return sql.run("listing archive candidates settled before " + settledBefore, session -> session.list(
                sql.firstRows("SELECT " + P_COLUMNS + " FROM PROC_STATE p WHERE p.STATE IN " + TERMINAL
                        + " AND p.STATE <> 'ARCHIVED' AND " + SETTLED + " AND p.UPDATED_AT < ?"
                        + " ORDER BY p.UPDATED_AT, p.MSG_ID"),
                ProcStateRows::recordOf, settledBefore, limit));
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

    private static Object[] params(List<?> first, List<?> rest) {
        var all = new ArrayList<Object>(first);
        all.addAll(rest);
        return all.toArray();
    }
}
