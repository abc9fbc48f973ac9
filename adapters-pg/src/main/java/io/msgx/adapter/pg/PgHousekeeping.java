package io.msgx.adapter.pg;

import io.msgx.pipeline.port.Housekeeping;
import org.jooq.DSLContext;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

import static io.msgx.adapter.pg.jooq.Tables.FLIGHT_HST;
import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE_HST;
import static io.msgx.adapter.pg.jooq.Tables.RAW_MSG_COPY;
import static io.msgx.adapter.pg.jooq.Tables.REQ_TRACK;
import static io.msgx.adapter.pg.jooq.Tables.SCHD_SNAP_LOG;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.select;

/**
 * {@link Housekeeping}: each call one auto-committed DELETE of at most {@code limit} rows, the oldest first
 * ({@code WHERE key IN (SELECT key ... ORDER BY time LIMIT n)}), the condition checked again on the rows deleted.
 */
final class PgHousekeeping implements Housekeeping {

    private final DSLContext dsl;

    PgHousekeeping(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public int deleteProcessingHistoryBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        var doomed = PROC_STATE_HST.as("doomed");
        return StoreOperation.run("deleting processing history archived before " + cutoff, () -> dsl
                .deleteFrom(PROC_STATE_HST)
                .where(PROC_STATE_HST.MSG_ID.in(select(doomed.MSG_ID)
                        .from(doomed)
                        .where(doomed.ARCHIVED_AT.lt(cutoff))
                        .orderBy(doomed.ARCHIVED_AT, doomed.MSG_ID)
                        .limit(limit)))
                .and(PROC_STATE_HST.ARCHIVED_AT.lt(cutoff))
                .execute());
    }

    @Override
    public int deleteFlightHistoryBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        var doomed = FLIGHT_HST.as("doomed");
        return StoreOperation.run("deleting flight history archived before " + cutoff, () -> dsl
                .deleteFrom(FLIGHT_HST)
                .where(row(FLIGHT_HST.FLID, FLIGHT_HST.STATE_VERSION).in(select(doomed.FLID, doomed.STATE_VERSION)
                        .from(doomed)
                        .where(doomed.ARCHIVED_AT.lt(cutoff))
                        .orderBy(doomed.ARCHIVED_AT, doomed.FLID, doomed.STATE_VERSION)
                        .limit(limit)))
                .and(FLIGHT_HST.ARCHIVED_AT.lt(cutoff))
                .execute());
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
        var doomed = SCHD_SNAP_LOG.as("doomed");
        var ended = SCHD_SNAP_LOG.SCOPE_END.lt(scopeEndBefore).or(SCHD_SNAP_LOG.SCOPE_END.isNull());
        return StoreOperation.run("deleting the schedule trail of scopes ended before " + scopeEndBefore, () -> dsl
                .deleteFrom(SCHD_SNAP_LOG)
                .where(SCHD_SNAP_LOG.ID.in(select(doomed.ID)
                        .from(doomed)
                        .where(doomed.SCOPE_END.lt(scopeEndBefore).or(doomed.SCOPE_END.isNull()))
                        .and(doomed.RECV_AT.lt(recordedBefore))
                        .orderBy(doomed.SCOPE_END.asc().nullsFirst(), doomed.RECV_AT, doomed.ID)
                        .limit(limit)))
                .and(ended)
                .and(SCHD_SNAP_LOG.RECV_AT.lt(recordedBefore))
                .execute());
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
        var closed = List.of(inline("DONE"), inline("EXPIRED"));
        var doomed = REQ_TRACK.as("doomed");
        return StoreOperation.run("deleting requests closed before " + cutoff, () -> dsl
                .deleteFrom(REQ_TRACK)
                .where(REQ_TRACK.ID.in(select(doomed.ID)
                        .from(doomed)
                        .where(doomed.STATUS.in(closed))
                        .and(doomed.DONE_AT.lt(cutoff))
                        .orderBy(doomed.DONE_AT, doomed.ID)
                        .limit(limit)))
                .and(REQ_TRACK.STATUS.in(closed))
                .and(REQ_TRACK.DONE_AT.lt(cutoff))
                .execute());
    }

    @Override
    public int deleteRawCopiesBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        var doomed = RAW_MSG_COPY.as("doomed");
        return StoreOperation.run("deleting raw message copies kept before " + cutoff, () -> dsl
                .deleteFrom(RAW_MSG_COPY)
                .where(RAW_MSG_COPY.MSG_ID.in(select(doomed.MSG_ID)
                        .from(doomed)
                        .where(doomed.KEPT_AT.lt(cutoff))
                        .orderBy(doomed.KEPT_AT, doomed.MSG_ID)
                        .limit(limit)))
                .and(RAW_MSG_COPY.KEPT_AT.lt(cutoff))
                .execute());
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a cleanup batch is at least 1 row, got " + limit);
        }
    }
}
