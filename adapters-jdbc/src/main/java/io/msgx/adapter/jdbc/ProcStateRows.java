package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * What the {@code PROC_STATE} ports share: the table's columns, the row mapping to {@link ProcRecord}, and the
 * conditions the ports agree on. Every state change of those ports is one conditional UPDATE whose row count is the
 * answer ("false when not open"), so two racing writers can never both win; each port is used either per statement
 * in auto-commit, or bound to one transaction.
 *
 * <p>The operations of more than one statement (a batch enqueue; clearing abandonment and replay: Oracle 11g has
 * no {@code UPDATE ... RETURNING} into a list, so the rows are first locked with {@code SELECT ... FOR UPDATE}) are
 * atomic: in auto-commit they run in a transaction of their own (never holding {@code PIPELINE_LOCK}); bound to a
 * caller's transaction they run under a savepoint, so a refusal undoes only their own writes. A store may replace
 * the batched statements with its own (PostgreSQL's {@code unnest} arrays); the answers stay those written here.
 *
 * <p>Empty texts on Oracle ('' is NULL there): an empty {@code LAST_ERROR} reads back as null (no text, as
 * {@code MessageEnd.succeeded(null)}); an empty abandonment reason of an abandoned row reads back as {@code ""}
 * ({@code BACKFILL_ABANDONED_AT} tells that the row is abandoned); an empty reconciliation note reads back as null;
 * an empty identity key is refused (NULL means "no identity" and would bind nothing).
 *
 * <p>Public only for what a store's own statements and tests read: the columns, the open states, the width of
 * {@code LAST_ERROR} and the row mapping.
 */
public final class ProcStateRows {

    /** Every column of {@code PROC_STATE}, as {@link #recordOf} reads them. */
    public static final String COLUMNS = "MSG_ID, STATE, IDENTITY_KEY, ATTEMPTS, NEXT_ATTEMPT_AT, ERROR_CLASS, "
            + "LAST_ERROR, RECEIVED_AT, ENQUEUED_AT, UPDATED_AT, BACKFILL_NEXT_AT, BACKFILL_AT, BACKFILL_ATTEMPTS, "
            + "BACKFILL_ABANDONED_AT, BACKFILL_ABANDONED_REASON, BACKFILL_FAILING_SINCE";
    /** {@link #COLUMNS} of the row aliased {@code p}. */
    static final String P_COLUMNS = "p." + COLUMNS.replace(", ", ", p.");

    /** The open states, as an IN list. */
    public static final String OPEN = "('PENDING', 'FAILED')";
    /** The terminal states, as an IN list. */
    static final String TERMINAL = "('SUCCEEDED', 'SKIPPED', 'DEAD')";
    /** An abandoned terminal row (reconciled or not); never an archived shadow. */
    static final String ABANDONED = "p.STATE IN " + TERMINAL + " AND p.STATE <> 'ARCHIVED'"
            + " AND p.BACKFILL_AT IS NULL AND p.BACKFILL_ABANDONED_AT IS NOT NULL";
    /** Backfill settled: the mark confirmed, or abandoned and reconciled by an operator. */
    static final String SETTLED = "(p.BACKFILL_AT IS NOT NULL OR (p.BACKFILL_ABANDONED_AT IS NOT NULL"
            + " AND EXISTS (SELECT 1 FROM BACKFILL_RECONCILIATION s WHERE s.MSG_ID = p.MSG_ID)))";

    /** The width of {@code LAST_ERROR}. */
    public static final int LAST_ERROR_WIDTH = 2000;

    private ProcStateRows() {
    }

    /** Lock the rows among {@code ids} that match {@code condition}; their IDs, ascending. */
    static List<Long> lockWhere(StoreJdbc sql, StoreJdbc.Session session, List<Long> ids, String condition) throws SQLException {
        var locked = new ArrayList<Long>();
        for (var in : sql.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, ids)) {
            locked.addAll(session.list("SELECT p.MSG_ID FROM PROC_STATE p WHERE " + in.sql() + " AND " + condition
                    + " FOR UPDATE", row -> row.longValue("MSG_ID"), in));
        }
        locked.sort(null);
        return List.copyOf(locked);
    }

    /** The IDs once each, nulls dropped, in the order given. */
    static List<Long> distinct(Collection<Long> msgIds) {
        return msgIds.stream().filter(Objects::nonNull).distinct().toList();
    }

    /** The record of the current row (columns {@link #COLUMNS}), read by {@link StoreJdbc.Row}. */
    public static ProcRecord recordOf(StoreJdbc.Row row) throws SQLException {
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
