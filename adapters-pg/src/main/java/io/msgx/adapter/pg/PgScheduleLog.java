package io.msgx.adapter.pg;

import io.msgx.adapter.pg.jooq.tables.records.SchdSnapLogRecord;
import io.msgx.pipeline.port.ScheduleLog;
import org.jooq.DSLContext;
import org.jooq.Insert;
import org.jooq.InsertSetMoreStep;
import org.jooq.InsertSetStep;

import java.util.List;

import static io.msgx.adapter.pg.jooq.Tables.SCHD_SNAP_LOG;

/** {@link ScheduleLog} on {@code SCHD_SNAP_LOG}: one auto-committed insert per entry. */
final class PgScheduleLog implements ScheduleLog {

    private final DSLContext dsl;

    PgScheduleLog(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public void append(Entry entry) {
        StoreOperation.run("appending the schedule trail of message " + entry.msgId(), () -> insert(entry).execute());
    }

    @Override
    public void appendAll(List<Entry> entries) {
        if (!entries.isEmpty()) {
            StoreOperation.run("appending the schedule trail of " + entries.size() + " message(s)",
                    () -> {
                        var insert = row(dsl.insertInto(SCHD_SNAP_LOG), entries.get(0));
                        for (int i = 1; i < entries.size(); i++) {
                            insert = row(insert.newRecord(), entries.get(i));
                        }
                        return insert.execute();
                    });
        }
    }

    private Insert<?> insert(Entry entry) {
        return row(dsl.insertInto(SCHD_SNAP_LOG), entry);
    }

    /** One row; rows are chained with {@code newRecord()} into one multi-row INSERT. */
    private static InsertSetMoreStep<SchdSnapLogRecord> row(InsertSetStep<SchdSnapLogRecord> into, Entry entry) {
        return into
                .set(SCHD_SNAP_LOG.MSG_ID, entry.msgId())
                .set(SCHD_SNAP_LOG.KIND, entry.kind())
                .set(SCHD_SNAP_LOG.SCOPE_START, entry.scopeStart())
                .set(SCHD_SNAP_LOG.SCOPE_END, entry.scopeEnd())
                .set(SCHD_SNAP_LOG.FLIGHTS, entry.flights())
                .set(SCHD_SNAP_LOG.CHANGED, entry.changed())
                .set(SCHD_SNAP_LOG.OUTCOME, entry.outcome())
                .set(SCHD_SNAP_LOG.RECV_AT, entry.recordedAt());
    }

    @Override
    public List<Entry> entriesOf(long msgId) {
        return StoreOperation.run("reading the schedule trail of message " + msgId, () -> dsl
                .selectFrom(SCHD_SNAP_LOG)
                .where(SCHD_SNAP_LOG.MSG_ID.eq(msgId))
                .orderBy(SCHD_SNAP_LOG.RECV_AT, SCHD_SNAP_LOG.ID)
                .fetch(PgScheduleLog::entryOf));
    }

    private static Entry entryOf(SchdSnapLogRecord row) {
        return new Entry(row.getMsgId(), row.getKind(), row.getScopeStart(), row.getScopeEnd(), row.getFlights(),
                row.getChanged(), row.getOutcome(), row.getRecvAt());
    }
}
