package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcLeaderLease;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The single-active-instance lease ({@link JdbcLeaderLease}) on a PostgreSQL session-level advisory lock, keyed by the
 * store ({@link #keyOf}).
 */
public final class PgLeaderLease extends JdbcLeaderLease {

    private final long key;

    /** {@code key} identifies the store (e.g. a hash of its schema) so unrelated stores never contend. */
    public PgLeaderLease(DataSource dataSource, long key) {
        super(dataSource, "advisory lock " + key);
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

    @Override
    protected boolean take(Connection connection) throws SQLException {
        try (var statement = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            statement.setLong(1, key);
            try (var rows = statement.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        }
    }

    @Override
    protected void giveBack(Connection connection) throws SQLException {
        try (var statement = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            statement.setLong(1, key);
            statement.execute();
        }
    }
}
