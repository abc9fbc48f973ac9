package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcFlightStore;
import io.msgx.adapter.jdbc.JdbcHousekeeping;
import io.msgx.adapter.jdbc.JdbcInboxCursors;
import io.msgx.adapter.jdbc.JdbcProcStates;
import io.msgx.adapter.jdbc.JdbcRawMessageCopies;
import io.msgx.adapter.jdbc.JdbcReferenceData;
import io.msgx.adapter.jdbc.JdbcRequestTrack;
import io.msgx.adapter.jdbc.JdbcScheduleLog;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.adapter.jdbc.StoreDefectException;
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

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.restoreAutoCommit;
import static io.msgx.adapter.jdbc.AtomicUnit.rollback;

/**
 * The pipeline's store on Oracle 11g, in plain JDBC, with the guarantees of the PostgreSQL store.
 *
 * <p>{@link #inTransaction} runs its work on one connection with auto-commit off, commits when the work returns and
 * rolls back when it throws; {@link #inLockedTransaction} first locks the {@code PIPELINE_LOCK} row
 * ({@code SELECT ... FOR UPDATE}), so two locked transactions never overlap. Its ports
 * ({@link io.msgx.pipeline.port.StorePorts}), {@link #housekeeping()}, {@link #rawCopies()} and {@link #scheduleLog()}
 * run each call as its own auto-committed statement ({@link RequestTrack#register}, and the operations that lock their
 * rows before changing them, for want of a multi-row {@code RETURNING}: a batch enqueue, a replay, a reopening, as one
 * short transaction of their own, never holding {@code PIPELINE_LOCK}). A lost connection, a timeout or a
 * database going down surfaces as {@link io.msgx.pipeline.store.StoreUnavailableException} naming the operation;
 * any other SQL error is {@link StoreDefectException} (a defect).
 *
 * <p>One difference from PostgreSQL is handled here: Oracle keeps a transaction going after a failed statement.
 * Where the ports rely on PostgreSQL's "a failed statement aborts the transaction" (the flight history's archive
 * of a version archived already), the repository marks the transaction rollback-only, and it is rolled back even if
 * the work caught the failure.
 *
 * <p>SQL names no schema: the tables are the connecting user's (the one {@link OracleSchema#migrate} was given).
 * The data source must hand out auto-commit connections; its sessions should sort text in binary order
 * ({@code NLS_SORT=BINARY}, the default unless the client's locale asks for a linguistic sort) so reference keys are
 * listed in code-point order.
 */
public final class OraclePipelineStore extends TablePorts<JdbcProcStates, OracleOutbox> implements PipelineStore {

    private final DataSource dataSource;
    private final Clock clock;
    private final Duration lockWait;
    private final Sql autoCommit;
    private final TransactionRunner transactions;

    private OraclePipelineStore(DataSource dataSource, Clock clock, Duration lockWait) {
        this(dataSource, clock, lockWait, Sql.autoCommit(OracleDialect.ORACLE, dataSource));
    }

    private OraclePipelineStore(DataSource dataSource, Clock clock, Duration lockWait, Sql autoCommit) {
        super(new JdbcProcStates(autoCommit), new OracleOutbox(autoCommit));
        this.dataSource = dataSource;
        this.clock = clock;
        this.lockWait = lockWait;
        this.autoCommit = autoCommit;
        this.transactions = new TransactionRunner(dataSource, OracleDialect.FAILURES::unavailable,
                OracleDialect.ORACLE::failure);
    }

    /**
     * A store over {@code dataSource} (pooled, auto-commit connections of the migrated schema's user). {@code clock}
     * stamps the audit times that no port method receives ({@code INBOX_CURSOR.UPDATED_AT}). A locked transaction
     * waits for {@code PIPELINE_LOCK} as long as it takes (as on PostgreSQL without {@code lock_timeout}).
     */
    public static OraclePipelineStore create(DataSource dataSource, Clock clock) {
        return new OraclePipelineStore(Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(clock, "clock"), null);
    }

    /**
     * As {@link #create(DataSource, Clock)}, but a locked transaction waits at most {@code lockWait} (rounded up to
     * whole seconds, Oracle's {@code FOR UPDATE WAIT n}) for {@code PIPELINE_LOCK}, then fails as unavailable.
     */
    public static OraclePipelineStore create(DataSource dataSource, Clock clock, Duration lockWait) {
        Objects.requireNonNull(lockWait, "lockWait");
        if (lockWait.isNegative() || lockWait.isZero()) {
            throw new IllegalArgumentException("the wait for PIPELINE_LOCK is positive, got " + lockWait);
        }
        return new OraclePipelineStore(Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(clock, "clock"), lockWait);
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
        return new JdbcFlightStore(autoCommit);
    }

    @Override
    public InboxCursors inboxCursor() {
        return new JdbcInboxCursors(autoCommit, clock);
    }

    @Override
    public Housekeeping housekeeping() {
        return new JdbcHousekeeping(autoCommit);
    }

    @Override
    public RawMessageCopies rawCopies() {
        return new JdbcRawMessageCopies(autoCommit);
    }

    @Override
    public ScheduleLog scheduleLog() {
        return new JdbcScheduleLog(autoCommit);
    }

    /** Reads of {@code REF_MASTER}, each its own statement (a refresh here is not atomic: write in a transaction). */
    @Override
    public ReferenceData referenceData() {
        return new JdbcReferenceData(autoCommit);
    }

    /**
     * {@code REQ_TRACK}, each call its own statement; {@link RequestTrack#register} (expire the old open request,
     * insert the new one) as one short transaction of its own.
     */
    @Override
    public RequestTrack requests() {
        return RequestTrack.autoCommitted(this, new JdbcRequestTrack(autoCommit));
    }

    /** The {@code PIPELINE_LOCK} row of the lifecycle lock, created by its first user. */
    static final String LIFECYCLE_LOCK = "LIFECYCLE";

    /**
     * The {@code PIPELINE_LOCK} row {@value #LIFECYCLE_LOCK}, locked ({@code FOR UPDATE WAIT}, the locked transactions'
     * wait) by a transaction on a connection of its own for the length of {@code work}, and released by its rollback.
     * The row is inserted the first time (the lease row is made the same way, so the runtime user may).
     */
    @Override
    public <T> T exclusiveLifecycle(java.util.function.Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        ensureLockRow();
        Connection connection = open("the lifecycle lock");
        try {
            try {
                connection.setAutoCommit(false);
                try (var lock = connection.prepareStatement("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ?"
                        + OracleTransaction.forUpdate(lockWait))) {
                    lock.setString(1, LIFECYCLE_LOCK);
                    lock.executeQuery().close();
                }
            } catch (SQLException e) {
                rollback(connection, e);
                throw OracleDialect.ORACLE.failure("taking the lifecycle lock", e);
            }
            try {
                return work.get();
            } finally {
                try {
                    connection.rollback();
                } catch (SQLException ignored) {
                    // A broken session: its locks went with it.
                }
            }
        } finally {
            restoreAutoCommit(connection);
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Nothing left to release.
            }
        }
    }

    private void ensureLockRow() {
        autoCommit.run("creating the lifecycle lock row", session -> {
            if (session.list("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ?", row -> row.text("NAME"), LIFECYCLE_LOCK)
                    .isEmpty()) {
                try {
                    session.update("INSERT INTO PIPELINE_LOCK (NAME) VALUES (?)", LIFECYCLE_LOCK);
                } catch (java.sql.SQLIntegrityConstraintViolationException alreadyThere) {
                    // Another process inserted it meanwhile.
                }
            }
            return null;
        });
    }

    private <T> T run(TransactionWork<T> work, boolean locked) {
        Objects.requireNonNull(work, "work");
        return transactions.run(locked ? "a locked transaction" : "a transaction", transaction -> {
            var tx = new OracleTransaction(transaction, clock);
            if (locked) {
                tx.lockPipeline(lockWait);
            }
            return work.run(tx);
        });
    }

    private Connection open(String kind) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw OracleDialect.FAILURES.unavailable("opening a connection for " + kind, e);
        }
    }
}
