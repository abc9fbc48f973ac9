package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcMessageQueue;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.pipeline.record.MessageEnd;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.msgx.adapter.jdbc.ProcStateRows.LAST_ERROR_WIDTH;
import static io.msgx.adapter.jdbc.ProcStateRows.OPEN;

/**
 * The FIFO queue on PostgreSQL: the shared statements ({@link JdbcMessageQueue}), with the batches of the hot path
 * each one statement planned once, whatever the number of messages ({@link UnnestRows}): the enqueue and the end of
 * a group.
 */
final class PgMessageQueue extends JdbcMessageQueue {

    /** The message ID column of the {@link UnnestRows} arrays. */
    static final StoreJdbc.Column MSG_ID = new StoreJdbc.Column("msg_id", Long.class);

    /** Enqueues messages as PENDING unless their row exists: ID, received time; then the enqueue time, first. */
    private static final String ENQUEUE = "INSERT INTO PROC_STATE (MSG_ID, STATE, ATTEMPTS, RECEIVED_AT, ENQUEUED_AT,"
            + " UPDATED_AT, BACKFILL_ATTEMPTS) SELECT r.msg_id, 'PENDING', 0, r.received_at, e.at, e.at, 0"
            + " FROM (SELECT cast(? as timestamptz) AS at) e, "
            + UnnestRows.unnest(List.of(MSG_ID, new StoreJdbc.Column("received_at", Instant.class)), "r")
            + " ON CONFLICT (MSG_ID) DO NOTHING";

    /**
     * Ends open messages, one row per message in the arrays: ID, state, error class, reason; the end time twice
     * (updated, and the backfill intent), bound first. A message no longer open is left alone.
     */
    private static final String END_MESSAGES = "UPDATE PROC_STATE SET STATE = e.state, ERROR_CLASS = e.error_class,"
            + " LAST_ERROR = e.last_error, UPDATED_AT = cast(? as timestamptz),"
            + " BACKFILL_NEXT_AT = cast(? as timestamptz) FROM "
            + UnnestRows.unnest(List.of(MSG_ID, new StoreJdbc.Column("state", String.class),
                    new StoreJdbc.Column("error_class", String.class), new StoreJdbc.Column("last_error", String.class)), "e")
            + " WHERE PROC_STATE.MSG_ID = e.msg_id AND PROC_STATE.STATE IN " + OPEN;

    PgMessageQueue(StoreJdbc sql) {
        super(sql);
    }

    @Override
    public int insertAllIfAbsent(Map<Long, Instant> receivedAt, Instant enqueuedAt) {
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        if (receivedAt.isEmpty()) {
            return 0;
        }
        var rows = receivedAt.entrySet().stream().map(e -> new Object[] {e.getKey(), e.getValue()}).toList();
        return sql.run("enqueueing " + rows.size() + " message(s)",
                session -> UnnestRows.execute(session.connection(), ENQUEUE, List.of(enqueuedAt), 2, rows));
    }

    @Override
    public boolean finish(long msgId, MessageEnd terminal, Instant now) {
        return finishAll(List.of(new Ending(msgId, terminal)), now) == 1;
    }

    @Override
    public int finishAll(List<Ending> endings, Instant now) {
        if (endings.isEmpty()) {
            return 0;
        }
        var rows = new ArrayList<Object[]>(endings.size());
        for (var ending : endings) {
            var terminal = ending.terminal();
            rows.add(new Object[] {ending.msgId(), terminal.status().name(),
                    terminal.errorClass() == null ? null : terminal.errorClass().name(),
                    sql.fitted(terminal.reason(), LAST_ERROR_WIDTH)});
        }
        var operation = endings.size() == 1
                ? "ending message " + endings.get(0).msgId() + " as " + endings.get(0).terminal().status()
                : "ending " + endings.size() + " message(s)";
        return sql.run(operation,
                session -> UnnestRows.execute(session.connection(), END_MESSAGES, List.of(now, now), 4, rows));
    }
}
