package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcPipelineStore;
import io.msgx.adapter.jdbc.JdbcTransaction;
import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.adapter.jdbc.TransactionConnection;
import io.msgx.pipeline.port.RequestTrack;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.returnToPool;
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
public final class OraclePipelineStore extends JdbcPipelineStore<OracleOutbox> {

    private final Duration lockWait;

    private OraclePipelineStore(DataSource dataSource, Clock clock, Duration lockWait, StoreJdbc sql) {
        super(dataSource, sql, sharedProcStatePorts(sql), new OracleOutbox(sql), clock);
        this.lockWait = lockWait;
    }

    /**
     * A store over {@code dataSource} (pooled, auto-commit connections of the migrated schema's user). {@code clock}
     * stamps the audit times that no port method receives ({@code INBOX_CURSOR.UPDATED_AT}). A locked transaction
     * waits for {@code PIPELINE_LOCK} as long as it takes (as on PostgreSQL without {@code lock_timeout}).
     */
    public static OraclePipelineStore create(DataSource dataSource, Clock clock) {
        return over(dataSource, clock, null);
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
        return over(dataSource, clock, lockWait);
    }

    private static OraclePipelineStore over(DataSource dataSource, Clock clock, Duration lockWait) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new OraclePipelineStore(dataSource, clock, lockWait, StoreJdbc.autoCommit(OracleDialect.ORACLE, dataSource));
    }

    @Override
    protected JdbcTransaction<OracleOutbox> transaction(TransactionConnection connection) {
        var sql = StoreJdbc.inTransaction(OracleDialect.ORACLE, connection);
        return new JdbcTransaction<>(connection, sql, sharedProcStatePorts(sql), new OracleOutbox(sql), clock);
    }

    /** {@code WAIT n}, the bound on the wait in whole seconds rounded up; none when the store has no bound. */
    @Override
    protected String pipelineLockWait() {
        return lockWait == null ? "" : " WAIT " + Math.max(1, (lockWait.toMillis() + 999) / 1000);
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
        Connection connection = openConnection("the lifecycle lock");
        try {
            try {
                connection.setAutoCommit(false);
                try (var lock = connection.prepareStatement("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ?"
                        + " FOR UPDATE" + pipelineLockWait())) {
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
            returnToPool(connection);
        }
    }

    private void ensureLockRow() {
        sql.run("creating the lifecycle lock row", session -> {
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
}
