package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcFlightStore;
import io.msgx.adapter.jdbc.JdbcHousekeeping;
import io.msgx.adapter.jdbc.JdbcInboxCursors;
import io.msgx.adapter.jdbc.JdbcRawMessageCopies;
import io.msgx.adapter.jdbc.JdbcReferenceData;
import io.msgx.adapter.jdbc.JdbcRequestTrack;
import io.msgx.adapter.jdbc.JdbcScheduleLog;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.adapter.jdbc.TransactionRunner;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.Housekeeping;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.RawMessageCopies;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.store.TablePorts;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.restoreAutoCommit;

/**
 * The pipeline's store on PostgreSQL (the reference store).
 *
 * <p>Guarantees: {@link #inTransaction} runs its work on one connection with auto-commit off, commits when the work
 * returns and rolls back when it throws; {@link #inLockedTransaction} first locks the {@code PIPELINE_LOCK} row
 * ({@code SELECT ... FOR UPDATE}), so two locked transactions never overlap. Its ports
 * ({@link io.msgx.pipeline.port.StorePorts}), {@link #housekeeping()}, {@link #rawCopies()} and {@link #scheduleLog()}
 * run each call as its own auto-committed statement ({@link RequestTrack#register} and the batched identity binding as
 * one short transaction of their own, never holding {@code PIPELINE_LOCK}). A lost connection or a timeout surfaces as
 * {@link io.msgx.pipeline.store.StoreUnavailableException} naming the operation; any other SQL error propagates as it
 * is (a defect).
 *
 * <p>SQL is rendered without a schema: the schema is whatever the data source's {@code search_path} names (the
 * one {@link PgSchema#migrate} was given). The data source must hand out auto-commit connections.
 */
public final class PgPipelineStore extends TablePorts<PgProcStates, PgOutbox> implements PipelineStore {

    private final DataSource dataSource;
    private final Clock clock;
    private final DSLContext autoCommit;
    private final Sql sql;
    private final TransactionRunner transactions;

    private PgPipelineStore(DataSource dataSource, Clock clock) {
        this(dataSource, clock, jooq(new DataSourceConnectionProvider(dataSource)),
                Sql.autoCommit(PgDialect.POSTGRESQL, dataSource));
    }

    private PgPipelineStore(DataSource dataSource, Clock clock, DSLContext autoCommit, Sql sql) {
        super(new PgProcStates(sql), new PgOutbox(sql, autoCommit));
        this.dataSource = dataSource;
        this.clock = clock;
        this.autoCommit = autoCommit;
        this.sql = sql;
        this.transactions = new TransactionRunner(dataSource, PgPipelineStore::failure, PgPipelineStore::failure);
    }

    /**
     * A store over {@code dataSource} (pooled, auto-commit connections whose search path is the migrated schema).
     * {@code clock} stamps the audit times that no port method receives ({@code INBOX_CURSOR.UPDATED_AT}).
     */
    public static PgPipelineStore create(DataSource dataSource, Clock clock) {
        return new PgPipelineStore(Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(clock, "clock"));
    }

    @Override
    public <T> T inTransaction(TransactionWork<T> work) {
        return run(work, false);
    }

    @Override
    public <T> T inLockedTransaction(TransactionWork<T> work) {
        return run(work, true);
    }

    @Override
    public FlightQueries flightQueries() {
        return new JdbcFlightStore(sql);
    }

    @Override
    public InboxCursors inboxCursor() {
        return new JdbcInboxCursors(sql, clock);
    }

    @Override
    public Housekeeping housekeeping() {
        return new JdbcHousekeeping(sql);
    }

    @Override
    public RawMessageCopies rawCopies() {
        return new JdbcRawMessageCopies(sql);
    }

    @Override
    public ScheduleLog scheduleLog() {
        return new JdbcScheduleLog(sql);
    }

    /** Reads of {@code REF_MASTER}, each its own statement (a refresh here is not atomic: write in a transaction). */
    @Override
    public ReferenceData referenceData() {
        return new JdbcReferenceData(sql);
    }

    /**
     * {@code REQ_TRACK}, each call its own statement; {@link RequestTrack#register} (expire the old open request,
     * insert the new one) as one short transaction of its own.
     */
    @Override
    public RequestTrack requests() {
        return RequestTrack.autoCommitted(this, new JdbcRequestTrack(sql));
    }

    /**
     * A session advisory lock keyed by the store's schema ({@code current_schema()}), taken on a connection of its own
     * and held for the length of {@code work}; it waits for the holder (bounded by the session's statement timeout).
     * The lease uses another key, so the lifecycle lock never contends with it.
     */
    @Override
    public <T> T exclusiveLifecycle(java.util.function.Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        Connection connection = open("the lifecycle lock");
        try {
            try (var lock = connection.prepareStatement("SELECT pg_advisory_lock(hashtext('msgexchange-lifecycle:' || "
                    + "current_schema()))")) {
                lock.execute();
            } catch (SQLException e) {
                throw failure("taking the lifecycle lock", e);
            }
            try {
                return work.get();
            } finally {
                try (var unlock = connection.prepareStatement("SELECT pg_advisory_unlock(hashtext("
                        + "'msgexchange-lifecycle:' || current_schema()))")) {
                    unlock.execute();
                } catch (SQLException ignored) {
                    // A broken session: its locks went with it.
                }
            }
        } finally {
            close(connection);
        }
    }

    private <T> T run(TransactionWork<T> work, boolean locked) {
        Objects.requireNonNull(work, "work");
        return transactions.run(locked ? "a locked transaction" : "a transaction", transaction -> {
            var tx = new PgTransaction(jooq(new TransactionConnectionProvider(transaction)),
                    Sql.inTransaction(PgDialect.POSTGRESQL, transaction), clock);
            if (locked) {
                tx.lockPipeline();
            }
            return work.run(tx);
        });
    }

    private Connection open(String kind) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw failure("opening a connection for " + kind, e);
        }
    }

    private static void close(Connection connection) {
        restoreAutoCommit(connection);
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Nothing left to release.
        }
    }

    private static RuntimeException failure(String operation, SQLException e) {
        return StoreOperation.FAILURES.retryable(operation, e)
                .orElseGet(() -> new DataAccessException("PostgreSQL refused " + operation + ": " + e.getMessage(), e));
    }

    private static DSLContext jooq(ConnectionProvider connections) {
        var settings = new Settings()
                .withRenderSchema(false)
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_QUOTED)
                .withExecuteLogging(false);
        return DSL.using(new DefaultConfiguration()
                .set(connections)
                .set(SQLDialect.POSTGRES)
                .set(settings));
    }
}
