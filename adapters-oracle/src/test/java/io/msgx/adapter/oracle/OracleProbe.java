package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.ProcStateRows;
import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.store.DatabaseArchiveContract.ArchivedReconciliation;
import io.msgx.pipeline.store.StoreProbe;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/** Reads and writes a test schema past the ports, for the contracts' hooks (plain SQL through {@link StoreJdbc}). */
final class OracleProbe implements StoreProbe {

    private final OracleTestDatabase database;
    /** Each request covers a day of its own: one open request per type, day and sender. */
    private int requests;

    OracleProbe(OracleTestDatabase database) {
        this.database = database;
    }

    /** Run {@code work} on an auto-commit connection of the test schema. */
    <T> T sql(StoreJdbc.Work<T> work) {
        return StoreJdbc.autoCommit(OracleDialect.ORACLE, database.dataSource()).run("probing the test schema", work);
    }

    long count(String sql, Object... params) {
        return sql(session -> session.one(sql, row -> row.longValue(1), params).orElseThrow());
    }

    List<String> strings(String sql, Object... params) {
        return sql(session -> session.list(sql, row -> row.text("V"), params));
    }

    @Override
    public long countProcessingHistory(long msgId) {
        return count("SELECT COUNT(*) FROM PROC_STATE_HST WHERE MSG_ID = ?", msgId);
    }

    /** The archived row with the reconciliation it carries. */
    record HistoryRow(ProcRecord record, Instant archivedAt, Instant reconciledAt, String reconciledBy,
                      String reconciliationNote) {
    }

    Optional<HistoryRow> processingHistoryRow(long msgId) {
        return sql(session -> session.one("SELECT h.*, h.ARCHIVED_AT AS A_AT FROM PROC_STATE_HST h WHERE MSG_ID = ?",
                row -> new HistoryRow(ProcStateRows.recordOf(row), row.instant("A_AT"), row.instant("RECONCILED_AT"),
                        row.text("RECONCILED_BY"), row.text("RECONCILIATION_NOTE")), msgId));
    }

    @Override
    public Optional<ProcRecord> processingHistory(long msgId) {
        return processingHistoryRow(msgId).map(HistoryRow::record);
    }

    @Override
    public Optional<ArchivedReconciliation> archivedReconciliation(long msgId) {
        return processingHistoryRow(msgId).map(row -> new ArchivedReconciliation(row.reconciledAt(),
                row.reconciledBy(), row.reconciliationNote(), row.archivedAt()));
    }

    @Override
    public long countBackfillReconciliations() {
        return count("SELECT COUNT(*) FROM BACKFILL_RECONCILIATION");
    }

    @Override
    public long countFlightHistory(FlightId flid) {
        return count("SELECT COUNT(*) FROM FLIGHT_HST WHERE FLID = ?", flid.value());
    }

    @Override
    public Optional<String> flightHistorySnapshot(FlightId flid, long stateVersion) {
        return sql(session -> session.one("SELECT SNAPSHOT FROM FLIGHT_HST WHERE FLID = ? AND STATE_VERSION = ?",
                row -> row.textOrEmpty("SNAPSHOT"), flid.value(), stateVersion));
    }

    @Override
    public void clearBackfillNextAt(long msgId) {
        sql(session -> session.update("UPDATE PROC_STATE SET BACKFILL_NEXT_AT = NULL WHERE MSG_ID = ?", msgId));
    }

    @Override
    public long insertRequest(String status, Instant closedAt) {
        return insertRequest("DNLD", LocalDate.of(2024, 3, 1).plusDays(requests++), status, null, closedAt);
    }

    long insertRequest(String type, LocalDate day, String status, String seqn, Instant closedAt) {
        return sql(session -> {
            long id = session.nextValue("REQ_TRACK_SEQ");
            session.update("INSERT INTO REQ_TRACK (ID, REQ_TYPE, COVER_DAY, SENDER, STATUS, REQ_SEQN, CREATED_AT,"
                            + " DONE_AT) VALUES (?, ?, ?, 'RMS', ?, ?, ?, ?)",
                    id, type, day, status, seqn, Instant.parse("2024-03-01T00:00:00Z"), closedAt);
            return id;
        });
    }

    @Override
    public boolean requestExists(long id) {
        return count("SELECT COUNT(*) FROM REQ_TRACK WHERE ID = ?", id) == 1;
    }

    @Override
    public void refuseAuditRowsOf(String operator) {
        sql(session -> session.update("ALTER TABLE OPERATOR_AUDIT ADD CONSTRAINT CK_TEST_REFUSED CHECK (OPERATOR <> '"
                + operator + "')"));
    }

    /** The message of the SQL failure {@code work} ends with (for the schema's refusals). */
    static String refusal(Runnable work) {
        try {
            work.run();
        } catch (StoreDefectException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected the database to refuse");
    }

}
