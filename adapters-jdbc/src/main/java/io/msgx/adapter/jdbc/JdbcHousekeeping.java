package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.Housekeeping;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * {@link Housekeeping}: each call one auto-committed DELETE of at most {@code limit} rows, the oldest first, the
 * condition checked again on the rows deleted ({@link StoreJdbc#deleteFirst}).
 */
public final class JdbcHousekeeping implements Housekeeping {

    private final StoreJdbc sql;

    public JdbcHousekeeping(StoreJdbc sql) {
        this.sql = sql;
    }

    @Override
    public int deleteProcessingHistoryBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        return sql.deleteFirst("deleting processing history archived before " + cutoff,
                "PROC_STATE_HST", "MSG_ID", "ARCHIVED_AT < ?", "ARCHIVED_AT, MSG_ID", limit, cutoff);
    }

    /**
     * {@inheritDoc}
     *
     * <p>First raises {@code FLIGHT_HST_FORGOTTEN} to the highest version of every row older than {@code cutoff} (a
     * range of {@code IX_FLIGHT_HST_ARCHIVED_AT}), then deletes: a flight that comes back after its history is gone
     * still continues above every version it had (D-103). Each statement commits on its own; a stop between them leaves
     * the mark higher than the rows deleted, never lower.
     */
    @Override
    public int deleteFlightHistoryBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        sql.run("keeping the highest version of flight history archived before " + cutoff, session -> session.update(
                "UPDATE FLIGHT_HST_FORGOTTEN SET MAX_STATE_VERSION = (SELECT MAX(STATE_VERSION) FROM FLIGHT_HST"
                        + " WHERE ARCHIVED_AT < ?), FORGOTTEN_BEFORE = ? WHERE MAX_STATE_VERSION < (SELECT MAX(STATE_VERSION)"
                        + " FROM FLIGHT_HST WHERE ARCHIVED_AT < ?)", cutoff, cutoff, cutoff));
        return sql.deleteFirst("deleting flight history archived before " + cutoff,
                "FLIGHT_HST", "FLID, STATE_VERSION", "ARCHIVED_AT < ?", "ARCHIVED_AT, FLID, STATE_VERSION",
                limit, cutoff);
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
        return sql.deleteFirst("deleting the schedule trail of scopes ended before " + scopeEndBefore,
                "SCHD_SNAP_LOG", "ID", "(SCOPE_END < ? OR SCOPE_END IS NULL) AND RECV_AT < ?",
                "SCOPE_END NULLS FIRST, RECV_AT, ID", limit, scopeEndBefore, recordedBefore);
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code DONE_AT} is the close time of both closed states (the schema refuses a closed row without it).
     */
    @Override
    public int deleteClosedRequestsBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        return sql.deleteFirst("deleting requests closed before " + cutoff,
                "REQ_TRACK", "ID", "STATUS IN ('DONE', 'EXPIRED') AND DONE_AT < ?", "DONE_AT, ID", limit, cutoff);
    }

    @Override
    public int deleteRawCopiesBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        return sql.deleteFirst("deleting raw message copies kept before " + cutoff,
                "RAW_MSG_COPY", "MSG_ID", "KEPT_AT < ?", "KEPT_AT, MSG_ID", limit, cutoff);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The one statement of the application that deletes audit rows; PostgreSQL's trigger refuses every UPDATE of
     * them whoever asks (D-139).
     */
    @Override
    public int deleteOperatorAuditBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        return sql.deleteFirst("deleting the operator audit trail recorded before " + cutoff,
                "OPERATOR_AUDIT", "ID", "RECORDED_AT < ?", "RECORDED_AT, ID", limit, cutoff);
    }
}
