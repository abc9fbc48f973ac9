package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
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
import java.util.Optional;

import static io.msgx.adapter.jdbc.ProcStateRows.COLUMNS;
import static io.msgx.adapter.jdbc.ProcStateRows.LAST_ERROR_WIDTH;
import static io.msgx.adapter.jdbc.ProcStateRows.OPEN;

/**
 * The FIFO queue on {@code PROC_STATE} ({@link MessageQueue}): enqueueing, the head, the run a group may take, and
 * ending or failing a message, in the statements both databases read alike ({@link ProcStateRows} says what the
 * {@code PROC_STATE} ports share and guarantee).
 */
public class JdbcMessageQueue implements MessageQueue {

    /** The conditional end of one open message with its backfill intent (owed from now). */
    private static final String FINISH = "UPDATE PROC_STATE SET STATE = ?, ERROR_CLASS = ?, LAST_ERROR = ?,"
            + " UPDATED_AT = ?, BACKFILL_NEXT_AT = ? WHERE MSG_ID = ? AND STATE IN " + OPEN;

    private static final Logger LOG = LoggerFactory.getLogger(JdbcMessageQueue.class);

    /** The statements' connection: auto-commit, or one transaction's. */
    protected final StoreJdbc sql;
    /** Enqueue one message as PENDING unless its row exists. */
    private final SqlDialect.RowStatement enqueue;

    public JdbcMessageQueue(StoreJdbc sql) {
        this.sql = sql;
        this.enqueue = sql.dialect().insertUnlessPresent("PROC_STATE", 1, "MSG_ID", "STATE", "ATTEMPTS", "RECEIVED_AT",
                "ENQUEUED_AT", "UPDATED_AT", "BACKFILL_ATTEMPTS");
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
                "SELECT " + COLUMNS + " FROM PROC_STATE WHERE MSG_ID = ?", ProcStateRows::recordOf, msgId));
    }

    /** One statement per {@link StoreJdbc#oneOf} condition; the result in the order the IDs were given. */
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
                        ProcStateRows::recordOf, in)) {
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
        StoreJdbc.requireLimit(limit);
        var open = sql.run("reading the pending run from the head", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM PROC_STATE WHERE STATE IN " + OPEN
                                + " AND STATE <> 'ARCHIVED' AND MSG_ID <= ? ORDER BY MSG_ID"),
                ProcStateRows::recordOf, watermark, limit));
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
                ProcStateRows::recordOf, 1));
    }

    @Override
    public boolean finish(long msgId, MessageEnd terminal, Instant now) {
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
}
