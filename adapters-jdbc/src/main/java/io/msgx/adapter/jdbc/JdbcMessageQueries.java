package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;

import java.util.List;

import static io.msgx.adapter.jdbc.ProcStateRows.COLUMNS;
import static io.msgx.adapter.jdbc.ProcStateRows.OPEN;

/**
 * Listings and backlog counts of {@code PROC_STATE} ({@link MessageQueries}); {@link ProcStateRows} says what the
 * {@code PROC_STATE} ports share and guarantee.
 */
public final class JdbcMessageQueries implements MessageQueries {

    /** The statements' connection: auto-commit, or one transaction's. */
    private final StoreJdbc sql;

    public JdbcMessageQueries(StoreJdbc sql) {
        this.sql = sql;
    }

    @Override
    public List<ProcRecord> withStatus(ProcStatus status, int limit) {
        return sql.run("listing " + status + " messages", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM PROC_STATE WHERE STATE = ? ORDER BY MSG_ID"),
                ProcStateRows::recordOf, status.name(), limit));
    }

    @Override
    public Backlog backlog() {
        return sql.run("counting the backlog", session -> session.one(
                "SELECT COUNT(CASE WHEN STATE = 'PENDING' THEN 1 END) AS PENDING,"
                        + " COUNT(CASE WHEN STATE = 'FAILED' THEN 1 END) AS FAILED,"
                        + " COUNT(CASE WHEN STATE = 'SUCCEEDED' THEN 1 END) AS SUCCEEDED,"
                        + " COUNT(CASE WHEN STATE = 'SKIPPED' THEN 1 END) AS SKIPPED,"
                        + " COUNT(CASE WHEN STATE = 'DEAD' THEN 1 END) AS DEAD,"
                        + " MIN(CASE WHEN STATE IN " + OPEN + " THEN ENQUEUED_AT END) AS OLDEST_OPEN"
                        + " FROM PROC_STATE WHERE STATE <> 'ARCHIVED'",
                row -> new Backlog(row.longValue("PENDING"), row.longValue("FAILED"), row.longValue("SUCCEEDED"),
                        row.longValue("SKIPPED"), row.longValue("DEAD"), row.instant("OLDEST_OPEN"))).orElseThrow());
    }
}
