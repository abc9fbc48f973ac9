package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.ScheduleLog;

import java.util.List;

/**
 * {@link ScheduleLog} on {@code SCHD_SNAP_LOG}: one auto-committed insert per entry (a JDBC batch for several), its
 * ID from {@code SCHD_SNAP_LOG_SEQ} (Oracle) or the identity column (PostgreSQL). An empty kind or outcome is stored
 * as NULL on Oracle ('') and read back as {@code ""}.
 */
public final class JdbcScheduleLog implements ScheduleLog {

    private final StoreJdbc sql;
    private final String insert;

    public JdbcScheduleLog(StoreJdbc sql) {
        this.sql = sql;
        this.insert = "INSERT INTO SCHD_SNAP_LOG (ID, MSG_ID, KIND, SCOPE_START, SCOPE_END, FLIGHTS, CHANGED, OUTCOME,"
                + " RECV_AT) VALUES (" + sql.dialect().generatedKey("SCHD_SNAP_LOG_SEQ") + ", ?, ?, ?, ?, ?, ?, ?, ?)";
    }

    @Override
    public void append(Entry entry) {
        sql.run("appending the schedule trail of message " + entry.msgId(), session -> session.update(insert,
                row(entry)));
    }

    /** One JDBC batch (one round trip), auto-committed as one statement. */
    @Override
    public void appendAll(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        sql.run("appending the schedule trail of " + entries.size() + " message(s) from " + entries.get(0).msgId(),
                session -> {
                    try (var batch = session.batch(insert)) {
                        for (var entry : entries) {
                            batch.add(row(entry));
                        }
                        return batch.execute();
                    }
                });
    }

    private static Object[] row(Entry entry) {
        return new Object[]{entry.msgId(), entry.kind(), entry.scopeStart(), entry.scopeEnd(), entry.flights(),
                entry.changed(), entry.outcome(), entry.recordedAt()};
    }

    @Override
    public List<Entry> entriesOf(long msgId) {
        return sql.run("reading the schedule trail of message " + msgId, session -> session.list(
                "SELECT MSG_ID, KIND, SCOPE_START, SCOPE_END, FLIGHTS, CHANGED, OUTCOME, RECV_AT FROM SCHD_SNAP_LOG"
                        + " WHERE MSG_ID = ? ORDER BY RECV_AT, ID",
                row -> new Entry(row.longValue("MSG_ID"), row.textOrEmpty("KIND"), row.day("SCOPE_START"),
                        row.day("SCOPE_END"), row.intValue("FLIGHTS"), row.intValue("CHANGED"),
                        row.textOrEmpty("OUTCOME"), row.instant("RECV_AT")), msgId));
    }
}
