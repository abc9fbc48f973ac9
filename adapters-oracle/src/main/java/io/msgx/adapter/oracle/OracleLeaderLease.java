package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcTransaction;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.restoreAutoCommit;

/**
 * The single-active-instance lease (seeds PRE-5) on Oracle: a row of {@code PIPELINE_LOCK} (named
 * {@value #DEFAULT_NAME} unless told otherwise) locked {@code FOR UPDATE NOWAIT} in a transaction that stays open on one
 * dedicated connection for as long as the instance is active. A second instance against the same schema does not get
 * the row and waits as a hot standby, polling {@link #tryAcquire()}; when the active instance dies its session ends,
 * Oracle rolls its transaction back (PMON, within seconds to a minute after the connection is seen dead), the row is
 * free, and the standby takes over. This is the Oracle twin of {@code PgLeaderLease}'s advisory lock; nothing else
 * is coordinated, since every write of the pipeline is transactional and idempotent.
 *
 * <p>The lease row is a different row from {@code PIPELINE}, so holding the lease never blocks a locked transaction.
 */
public final class OracleLeaderLease implements AutoCloseable {

    /** The name of the lease row in {@code PIPELINE_LOCK}. */
    public static final String DEFAULT_NAME = "LEADER";

    private static final Logger log = LoggerFactory.getLogger(OracleLeaderLease.class);

    private final DataSource dataSource;
    private final String name;
    private Connection held;

    /** The lease named {@value #DEFAULT_NAME} of the schema behind {@code dataSource}. */
    public OracleLeaderLease(DataSource dataSource) {
        this(dataSource, DEFAULT_NAME);
    }

    /** {@code name} (1 to 32 characters, not {@code PIPELINE}) tells apart leases that share one schema. */
    public OracleLeaderLease(DataSource dataSource, String name) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        if (name == null || name.isBlank() || name.length() > 32 || name.equals(JdbcTransaction.PIPELINE)) {
            throw new IllegalArgumentException("a lease name has 1 to 32 characters and is not "
                    + JdbcTransaction.PIPELINE + ", got '" + name + "'");
        }
        this.name = name;
    }

    /**
     * True when this instance holds the lease now (acquired now or held already), false while another instance holds
     * it.
     *
     * @throws StoreUnavailableException when the store cannot be reached: nobody can be told to hold the lease then
     */
    public synchronized boolean tryAcquire() {
        if (isHeld()) {
            return true;
        }
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(true);
            createRowIfMissing(connection);
            connection.setAutoCommit(false);
            try (var lock = connection.prepareStatement("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ? FOR UPDATE NOWAIT")) {
                lock.setString(1, name);
                lock.executeQuery().close();
            } catch (SQLException e) {
                // ORA-00054 (H2: a lock timeout): another session holds the lease.
                log.debug("Leader lease {} is held by another instance: {}", name, e.getMessage());
                closeQuietly(connection);
                return false;
            }
            held = connection;
            log.info("Leader lease acquired (PIPELINE_LOCK row {}): this instance is active", name);
            return true;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new StoreUnavailableException("Leader lease could not be checked: " + e.getMessage(), e);
        }
    }

    /**
     * Insert the lease row once (a plain read first: a MERGE would wait for the holder's row lock). A unique
     * violation means another instance inserted it at the same moment.
     */
    private void createRowIfMissing(Connection connection) throws SQLException {
        try (var exists = connection.prepareStatement("SELECT COUNT(*) FROM PIPELINE_LOCK WHERE NAME = ?")) {
            exists.setString(1, name);
            try (var rows = exists.executeQuery()) {
                rows.next();
                if (rows.getLong(1) > 0) {
                    return;
                }
            }
        }
        try (var create = connection.prepareStatement("INSERT INTO PIPELINE_LOCK (NAME) VALUES (?)")) {
            create.setString(1, name);
            create.executeUpdate();
        } catch (SQLException e) {
            if (!OracleDialect.FAILURES.isUniqueViolation(e)) {
                throw e;
            }
        }
    }

    /** True while the lease's connection is alive (a lost connection means the lock is gone). */
    public synchronized boolean isHeld() {
        if (held == null) {
            return false;
        }
        try {
            if (held.isValid(2)) {
                return true;
            }
        } catch (SQLException e) {
            // treated as lost below
        }
        log.error("Leader lease lost: its connection to the store is gone; this instance must stop processing");
        closeQuietly(held);
        held = null;
        return false;
    }

    @Override
    public synchronized void close() {
        if (held != null) {
            closeQuietly(held);
            held = null;
        }
    }

    /** Ends the lease's transaction (releasing the row) and its connection. */
    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        } catch (SQLException ignored) {
            // the session ends either way
        }
        restoreAutoCommit(connection);
        try {
            connection.close();
        } catch (SQLException ignored) {
            // the session ends either way
        }
    }
}
