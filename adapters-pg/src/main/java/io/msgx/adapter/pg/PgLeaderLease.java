package io.msgx.adapter.pg;

import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The single-active-instance lease (seeds PRE-5) on a PostgreSQL session-level advisory lock, held on one
 * dedicated connection for as long as the instance is active. A second instance against the same store does
 * not get it and waits as a hot standby, polling {@link #tryAcquire()}; when the active instance dies its
 * session ends, PostgreSQL releases the lock, and the standby takes over. Nothing else is coordinated: every
 * write of the pipeline is transactional and idempotent, so the taker-over resumes from the committed state.
 */
public final class PgLeaderLease implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PgLeaderLease.class);

    private final DataSource dataSource;
    private final long key;
    private Connection held;

    /** {@code key} identifies the store (e.g. a hash of its schema) so unrelated stores never contend. */
    public PgLeaderLease(DataSource dataSource, long key) {
        this.dataSource = dataSource;
        this.key = key;
    }

    /** The lock key of a schema: stable across processes and versions. */
    public static long keyOf(String schema) {
        long hash = 1125899906842597L;
        for (char c : ("msgexchange:" + schema).toCharArray()) {
            hash = 31 * hash + c;
        }
        return hash;
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
            try (var statement = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                statement.setLong(1, key);
                try (var rows = statement.executeQuery()) {
                    rows.next();
                    if (rows.getBoolean(1)) {
                        held = connection;
                        log.info("Leader lease acquired (advisory lock {}): this instance is active", key);
                        return true;
                    }
                }
            }
            connection.close();
            return false;
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
            try (var statement = held.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                statement.setLong(1, key);
                statement.execute();
            } catch (SQLException e) {
                log.debug("Unlock failed; closing the session releases the lock anyway: {}", e.getMessage());
            }
            closeQuietly(held);
            held = null;
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the session ends either way
            }
        }
    }
}
