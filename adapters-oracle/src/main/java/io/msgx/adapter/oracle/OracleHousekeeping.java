package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.Housekeeping;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * {@link Housekeeping}: each call one auto-committed DELETE of at most {@code limit} rows, the oldest first
 * ({@code WHERE key IN (SELECT * FROM (SELECT key ... ORDER BY time) WHERE ROWNUM <= n)}), the condition checked
 * again on the rows deleted.
 */
final class OracleHousekeeping implements Housekeeping {

    private final Sql sql;

    OracleHousekeeping(Sql sql) {
        this.sql = sql;
    }

    @Override
    public int deleteProcessingHistoryBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        return sql.run("deleting processing history archived before " + cutoff, session -> session.update(
                "DELETE FROM PROC_STATE_HST WHERE MSG_ID IN (" + Sql.firstRows("SELECT d.MSG_ID FROM PROC_STATE_HST d"
                        + " WHERE d.ARCHIVED_AT < ? ORDER BY d.ARCHIVED_AT, d.MSG_ID") + ") AND ARCHIVED_AT < ?",
                cutoff, limit, cutoff));
    }

    @Override
    public int deleteFlightHistoryBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        return sql.run("deleting flight history archived before " + cutoff, session -> session.update(
                "DELETE FROM FLIGHT_HST WHERE (FLID, STATE_VERSION) IN (" + Sql.firstRows(
                        "SELECT d.FLID, d.STATE_VERSION FROM FLIGHT_HST d WHERE d.ARCHIVED_AT < ?"
                                + " ORDER BY d.ARCHIVED_AT, d.FLID, d.STATE_VERSION") + ") AND ARCHIVED_AT < ?",
                cutoff, limit, cutoff));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A line without a scope (none could be derived) has no scope end to wait for: its recording time decides.
     */
    @Override
    public int deleteScheduleLogBefore(LocalDate scopeEndBefore, Instant recordedBefore, int limit) {
        Objects.requireNonNull(scopeEndBefore, "scopeEndBefore");
        Objects.requireNonNull(recordedBefore, "recordedBefore");
        requireLimit(limit);
        return sql.run("deleting the schedule trail of scopes ended before " + scopeEndBefore, session -> session.update(
                "DELETE FROM SCHD_SNAP_LOG WHERE ID IN (" + Sql.firstRows("SELECT d.ID FROM SCHD_SNAP_LOG d"
                        + " WHERE (d.SCOPE_END < ? OR d.SCOPE_END IS NULL) AND d.RECV_AT < ?"
                        + " ORDER BY d.SCOPE_END NULLS FIRST, d.RECV_AT, d.ID") + ")"
                        + " AND (SCOPE_END < ? OR SCOPE_END IS NULL) AND RECV_AT < ?",
                scopeEndBefore, recordedBefore, limit, scopeEndBefore, recordedBefore));
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code DONE_AT} is the close time of both closed states (the schema refuses a closed row without it).
     */
    @Override
    public int deleteClosedRequestsBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        return sql.run("deleting requests closed before " + cutoff, session -> session.update(
                "DELETE FROM REQ_TRACK WHERE ID IN (" + Sql.firstRows("SELECT d.ID FROM REQ_TRACK d"
                        + " WHERE d.STATUS IN ('DONE', 'EXPIRED') AND d.DONE_AT < ? ORDER BY d.DONE_AT, d.ID") + ")"
                        + " AND STATUS IN ('DONE', 'EXPIRED') AND DONE_AT < ?", cutoff, limit, cutoff));
    }

    @Override
    public int deleteRawCopiesBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        return sql.run("deleting raw message copies kept before " + cutoff, session -> session.update(
                "DELETE FROM RAW_MSG_COPY WHERE MSG_ID IN (" + Sql.firstRows("SELECT d.MSG_ID FROM RAW_MSG_COPY d"
                        + " WHERE d.KEPT_AT < ? ORDER BY d.KEPT_AT, d.MSG_ID") + ") AND KEPT_AT < ?",
                cutoff, limit, cutoff));
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a cleanup batch is at least 1 row, got " + limit);
        }
    }
}
