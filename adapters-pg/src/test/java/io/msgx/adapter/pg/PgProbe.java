package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.adapter.pg.jooq.tables.records.ProcStateHstRecord;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.store.DatabaseArchiveContract.ArchivedReconciliation;
import io.msgx.pipeline.store.StoreProbe;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import static io.msgx.adapter.pg.jooq.Tables.BACKFILL_RECONCILIATION;
import static io.msgx.adapter.pg.jooq.Tables.FLIGHT_HST;
import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE;
import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE_HST;
import static io.msgx.adapter.pg.jooq.Tables.REQ_TRACK;

/** Reads and writes a test schema past the ports, for the contracts' hooks. */
final class PgProbe implements StoreProbe {

    private final PgTestDatabase database;
    /** Each request covers a day of its own: one open request per type, day and sender. */
    private int requests;

    PgProbe(PgTestDatabase database) {
        this.database = database;
    }

    DSLContext sql() {
        return DSL.using(database.dataSource(), SQLDialect.POSTGRES, new Settings()
                .withRenderSchema(false)
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_QUOTED)
                .withExecuteLogging(false));
    }

    /**
     * Statistics of {@code table} taken now and kept: {@code ANALYZE}, with autovacuum off for the table so that
     * none catches up afterwards. What follows is what a planner sees when a table changes faster than it is analyzed.
     */
    void statisticsTakenNow(String table) {
        sql().execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
        sql().execute("ANALYZE " + table);
    }

    /** The plan PostgreSQL would run {@code query} by ({@code EXPLAIN}, without running it). */
    String plan(Query query) {
        return sql().explain(query).plan();
    }

    /** The plan PostgreSQL would run {@code statement} with {@code params} by ({@code EXPLAIN}, without running it). */
    String plan(String statement, Object... params) {
        List<String> lines = jdbc().run("explaining a statement", session -> session.list("EXPLAIN " + statement,
                row -> row.text("QUERY PLAN"), params));
        return String.join("\n", lines);
    }

    /** Runs {@code statement} with {@code params}; its row count. */
    int execute(String statement, Object... params) {
        return jdbc().run("running a statement", session -> session.update(statement, params));
    }

    private StoreJdbc jdbc() {
        return StoreJdbc.autoCommit(PgDialect.POSTGRESQL, database.dataSource());
    }

    @Override
    public long countProcessingHistory(long msgId) {
        return sql().fetchCount(PROC_STATE_HST, PROC_STATE_HST.MSG_ID.eq(msgId));
    }

    Optional<ProcStateHstRecord> processingHistoryRow(long msgId) {
        return sql().selectFrom(PROC_STATE_HST).where(PROC_STATE_HST.MSG_ID.eq(msgId)).fetchOptional();
    }

    @Override
    public Optional<ProcRecord> processingHistory(long msgId) {
        return processingHistoryRow(msgId).map(row -> new ProcRecord(row.getMsgId(), ProcStatus.valueOf(row.getState()),
                row.getIdentityKey(), row.getAttempts(), row.getNextAttemptAt(),
                row.getErrorClass() == null ? null : ErrorClass.valueOf(row.getErrorClass()), row.getLastError(),
                row.getReceivedAt(), row.getEnqueuedAt(), row.getUpdatedAt(), row.getBackfillNextAt(),
                row.getBackfillAt(), row.getBackfillAttempts(), row.getBackfillAbandonedAt(),
                row.getBackfillAbandonedReason(), row.getBackfillFailingSince()));
    }

    @Override
    public Optional<ArchivedReconciliation> archivedReconciliation(long msgId) {
        return processingHistoryRow(msgId).map(row -> new ArchivedReconciliation(row.getReconciledAt(),
                row.getReconciledBy(), row.getReconciliationNote(), row.getArchivedAt()));
    }

    @Override
    public long countBackfillReconciliations() {
        return sql().fetchCount(BACKFILL_RECONCILIATION);
    }

    @Override
    public long countFlightHistory(FlightId flid) {
        return sql().fetchCount(FLIGHT_HST, FLIGHT_HST.FLID.eq(flid.value()));
    }

    @Override
    public Optional<String> flightHistorySnapshot(FlightId flid, long stateVersion) {
        return sql().select(FLIGHT_HST.SNAPSHOT).from(FLIGHT_HST)
                .where(FLIGHT_HST.FLID.eq(flid.value())).and(FLIGHT_HST.STATE_VERSION.eq(stateVersion))
                .fetchOptional(FLIGHT_HST.SNAPSHOT);
    }

    @Override
    public void clearBackfillNextAt(long msgId) {
        sql().update(PROC_STATE).set(PROC_STATE.BACKFILL_NEXT_AT, (Instant) null)
                .where(PROC_STATE.MSG_ID.eq(msgId)).execute();
    }

    @Override
    public long insertRequest(String status, Instant closedAt) {
        return sql().insertInto(REQ_TRACK)
                .set(REQ_TRACK.REQ_TYPE, "DNLD")
                .set(REQ_TRACK.COVER_DAY, LocalDate.of(2024, 3, 1).plusDays(requests++))
                .set(REQ_TRACK.SENDER, "RMS")
                .set(REQ_TRACK.STATUS, status)
                .set(REQ_TRACK.CREATED_AT, Instant.parse("2024-03-01T00:00:00Z"))
                .set(REQ_TRACK.DONE_AT, closedAt)
                .returningResult(REQ_TRACK.ID)
                .fetchSingle(REQ_TRACK.ID);
    }

    @Override
    public boolean requestExists(long id) {
        return sql().fetchExists(REQ_TRACK, REQ_TRACK.ID.eq(id));
    }

    @Override
    public void refuseAuditRowsOf(String operator) {
        execute("ALTER TABLE OPERATOR_AUDIT ADD CONSTRAINT CK_TEST_REFUSED CHECK (OPERATOR <> '" + operator + "')");
    }
}
