package io.msgx.adapter.jdbc;

import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.returnToPool;

/**
 * The single-active-instance lease (seeds PRE-5): a database lock that ends with its session, held on one dedicated
 * connection for as long as the instance is active. A second instance against the same store does not get it and
 * waits as a hot standby, polling {@link #tryAcquire()}; when the active instance dies its session ends, the database
 * releases the lock, and the standby takes over. Nothing else is coordinated: every write of the pipeline is
 * transactional and idempotent, so the taker-over resumes from the committed state. Each database says how the lock
 * is taken ({@link #take}) and given back ({@link #giveBack}).
 */
public abstract class JdbcLeaderLease implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JdbcLeaderLease.class);

    private final DataSource dataSource;
    private final String lock;
    private Connection held;

    /** {@code lock} names the lock in the logs ("advisory lock 42", "PIPELINE_LOCK row LEADER"). */
    protected JdbcLeaderLease(DataSource dataSource, String lock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.lock = lock;
    }

    /** Tries to take the lock on {@code connection} (in auto-commit); true when it is this session's now. */
    protected abstract boolean take(Connection connection) throws SQLException;

    /** Gives the lock back before its connection closes (closing the session would release it anyway). */
    protected void giveBack(Connection connection) throws SQLException {
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
            if (!take(connection)) {
                log.debug("Leader lease ({}) is held by another instance", lock);
                closeQuietly(connection);
                return false;
            }
            held = connection;
            log.info("Leader lease acquired ({}): this instance is active", lock);
            return true;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new StoreUnavailableException("Leader lease could not be checked: " + e.getMessage(), e);
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
            try {
                giveBack(held);
            } catch (SQLException e) {
                log.debug("Giving the lease back failed; closing the session releases it anyway: {}", e.getMessage());
            }
            closeQuietly(held);
            held = null;
        }
    }

    /** Ends the connection's transaction, if one is open (releasing a row lock), and the connection. */
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
        returnToPool(connection);
    }
}
