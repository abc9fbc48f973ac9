package io.msgx.adapter.oracle;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.adapter.jdbc.JdbcOutbox;
import io.msgx.adapter.jdbc.ProcStateRows;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.Housekeeping;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.RawMessageCopies;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ReferenceOutboxEntry;

import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * The store of the tests of the code above it (the pipeline's services, the runner's endpoints, the simulator): the
 * Oracle store, i.e. the statements of adapters-jdbc over {@link OracleDialect}, on an in-memory H2 database in
 * {@code MODE=Oracle}. Those tests so run the store's real statements with no server to start (D-101).
 *
 * <p>Migrating a database takes tens of milliseconds, too long for a property's hundreds of tries, so the databases
 * are kept for the JVM: {@link #fresh()} takes the least recently handed out of {@value #DATABASES}, empties it and
 * restarts its sequences. A store whose database has been handed on since fails on its next use, rather than reading
 * another test's rows; a test needs no more than {@value #DATABASES} stores at once.
 *
 * <p>Besides the ports it offers views for assertions ({@link #allFlights()}, {@link #allRecords()}, ...), read with
 * the store's own row readers.
 */
public final class H2TestStore implements PipelineStore {

    static final int DATABASES = 8;

    private static final Database[] POOL = new Database[DATABASES];
    private static int handedOut;

    private final Database database;
    private final long lease;
    private final OraclePipelineStore store;

    private H2TestStore(Database database, long lease) {
        this.database = database;
        this.lease = lease;
        this.store = OraclePipelineStore.create(database.dataSource, Clock.systemUTC());
    }

    /** A store on an empty, migrated database whose IDs start at 1 again. */
    public static synchronized H2TestStore fresh() {
        int slot = handedOut++ % DATABASES;
        if (POOL[slot] == null) {
            POOL[slot] = new Database(slot);
        }
        var database = POOL[slot];
        database.empty();
        return new H2TestStore(database, ++database.lease);
    }

    private OraclePipelineStore live() {
        if (database.lease != lease) {
            throw new IllegalStateException("this test store's database was handed to a newer store: a test holds more"
                    + " than " + DATABASES + " stores at once");
        }
        return store;
    }

    @Override
    public <T> T inTransaction(TransactionWork<T> work) {
        return live().inTransaction(work);
    }

    @Override
    public <T> T inLockedTransaction(TransactionWork<T> work) {
        return live().inLockedTransaction(work);
    }

    @Override
    public <T> T exclusiveLifecycle(Supplier<T> work) {
        return live().exclusiveLifecycle(work);
    }

    @Override
    public Housekeeping housekeeping() {
        return live().housekeeping();
    }

    @Override
    public RawMessageCopies rawCopies() {
        return live().rawCopies();
    }

    @Override
    public ScheduleLog scheduleLog() {
        return live().scheduleLog();
    }

    @Override
    public MessageQueue queue() {
        return live().queue();
    }

    @Override
    public IdentityRegister identities() {
        return live().identities();
    }

    @Override
    public BackfillMarks backfillMarks() {
        return live().backfillMarks();
    }

    @Override
    public MessageReplays replays() {
        return live().replays();
    }

    @Override
    public MessageArchive messageArchive() {
        return live().messageArchive();
    }

    @Override
    public MessageQueries messageQueries() {
        return live().messageQueries();
    }

    @Override
    public Notifications notifications() {
        return live().notifications();
    }

    @Override
    public Projections projections() {
        return live().projections();
    }

    @Override
    public ReferenceNotifications referenceNotifications() {
        return live().referenceNotifications();
    }

    @Override
    public DeadLetters deadLetters() {
        return live().deadLetters();
    }

    @Override
    public OutboxCleanup outboxCleanup() {
        return live().outboxCleanup();
    }

    @Override
    public OutboxQueries outboxQueries() {
        return live().outboxQueries();
    }

    @Override
    public FlightQueries flightQueries() {
        return live().flightQueries();
    }

    @Override
    public InboxCursors inboxCursor() {
        return live().inboxCursor();
    }

    @Override
    public ReferenceData referenceData() {
        return live().referenceData();
    }

    @Override
    public RequestTrack requests() {
        return live().requests();
    }

    @Override
    public OperatorAudit operatorAudit() {
        return live().operatorAudit();
    }

    // --- views for assertions ---

    /** Every flight, in FLID order. */
    public List<FlightState> allFlights() {
        var flids = read("SELECT FLID FROM FLIGHT_SCHD ORDER BY FLID", row -> FlightId.of(row.text("FLID")));
        return inTransaction(tx -> tx.flights().find(flids)).stream()
                .sorted(java.util.Comparator.comparing(FlightState::flid)).toList();
    }

    /** Every processing record, in message ID order. */
    public List<ProcRecord> allRecords() {
        return read("SELECT " + ProcStateRows.COLUMNS + " FROM PROC_STATE ORDER BY MSG_ID", ProcStateRows::recordOf);
    }

    /** Every outbox row but the reference data's, in {@code EVENT_ID} order. */
    public List<OutboxEntry> allEvents() {
        return read("SELECT " + JdbcOutbox.COLUMNS + " FROM MSG_EVENT WHERE TARGET <> 'KAFKA:ref' ORDER BY EVENT_ID",
                JdbcOutbox::entryOf);
    }

    /** Every {@code KAFKA:ref} row, in {@code EVENT_ID} order. */
    public List<ReferenceOutboxEntry> allReferenceEvents() {
        return read("SELECT " + JdbcOutbox.COLUMNS + " FROM MSG_EVENT WHERE TARGET = 'KAFKA:ref' ORDER BY EVENT_ID",
                JdbcOutbox::referenceEntryOf);
    }

    /** How many copies of a message {@code PROC_STATE_HST} holds. */
    public long processingHistoryCount(long msgId) {
        return read("SELECT COUNT(*) AS N FROM PROC_STATE_HST WHERE MSG_ID = ?", row -> row.longValue("N"), msgId)
                .get(0);
    }

    /** How many archived versions of a flight {@code FLIGHT_HST} holds. */
    public long flightHistoryCount(FlightId flid) {
        return read("SELECT COUNT(*) AS N FROM FLIGHT_HST WHERE FLID = ?", row -> row.longValue("N"), flid.value())
                .get(0);
    }

    private <T> List<T> read(String query, StoreJdbc.RowMapper<T> mapper, Object... params) {
        live();
        return database.sql.run("reading " + query, session -> session.list(query, mapper, params));
    }

    /** One kept in-memory database, its pool and the number of stores handed out on it. */
    private static final class Database {

        final HikariDataSource dataSource;
        final StoreJdbc sql;
        final List<String> sequences;
        volatile long lease;

        Database(int slot) {
            var config = new HikariConfig();
            config.setJdbcUrl("jdbc:h2:mem:msgx_test_store_" + slot + ";MODE=Oracle;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT="
                    + OracleTestDatabase.LOCK_TIMEOUT_MS);
            config.setUsername("sa");
            config.setPassword("");
            config.setMaximumPoolSize(8);
            config.setMinimumIdle(0);
            config.setConnectionTimeout(5_000);
            config.setPoolName("msgx-h2-test-store-" + slot);
            dataSource = new HikariDataSource(config);
            sql = StoreJdbc.autoCommit(OracleDialect.ORACLE, dataSource);
            OracleSchema.migrate(dataSource);
            sequences = sql.run("listing the sequences", session -> session.list("SELECT SEQUENCE_NAME FROM"
                    + " INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = 'PUBLIC'", row -> row.text("SEQUENCE_NAME")));
        }

        void empty() {
            try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
                OracleTestDatabase.emptyTables(statement);
                for (var sequence : sequences) {
                    statement.executeUpdate("ALTER SEQUENCE " + sequence + " RESTART WITH 1");
                }
            } catch (SQLException e) {
                throw new IllegalStateException("emptying the test store's database failed", e);
            }
        }
    }
}
