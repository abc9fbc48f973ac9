package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcLeaderLease;
import io.msgx.adapter.jdbc.JdbcTransaction;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The single-active-instance lease ({@link JdbcLeaderLease}) on Oracle: a row of {@code PIPELINE_LOCK} (named
 * {@value #DEFAULT_NAME} unless told otherwise) locked {@code FOR UPDATE NOWAIT} in a transaction that stays open on
 * its connection. When the active instance dies Oracle rolls its transaction back (PMON, within seconds to a minute
 * after the connection is seen dead) and the row is free. The lease row is a different row from {@code PIPELINE}, so
 * holding the lease never blocks a locked transaction.
 */
public final class OracleLeaderLease extends JdbcLeaderLease {

    /** The name of the lease row in {@code PIPELINE_LOCK}. */
    public static final String DEFAULT_NAME = "LEADER";

    private final String name;

    /** The lease named {@value #DEFAULT_NAME} of the schema behind {@code dataSource}. */
    public OracleLeaderLease(DataSource dataSource) {
        this(dataSource, DEFAULT_NAME);
    }

    /** {@code name} (1 to 32 characters, not {@code PIPELINE}) tells apart leases that share one schema. */
    public OracleLeaderLease(DataSource dataSource, String name) {
        super(dataSource, "PIPELINE_LOCK row " + name);
        if (name == null || name.isBlank() || name.length() > 32 || name.equals(JdbcTransaction.PIPELINE)) {
            throw new IllegalArgumentException("a lease name has 1 to 32 characters and is not "
                    + JdbcTransaction.PIPELINE + ", got '" + name + "'");
        }
        this.name = name;
    }

    /** ORA-00054, "resource busy and acquire with NOWAIT specified". */
    private static final int RESOURCE_BUSY = 54;
    /** H2's lock timeout (its answer to {@code NOWAIT} in the tests). */
    private static final int H2_LOCK_TIMEOUT = 50200;

    /**
     * The row, created once, locked in a transaction left open. Held by another session: ORA-00054 (H2: a lock
     * timeout); any other failure is the store's, and is thrown.
     */
    @Override
    protected boolean take(Connection connection) throws SQLException {
        createRowIfMissing(connection);
        connection.setAutoCommit(false);
        try (var lock = connection.prepareStatement("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ?"
                + " FOR UPDATE NOWAIT")) {
            lock.setString(1, name);
            lock.executeQuery().close();
            return true;
        } catch (SQLException e) {
            if (e.getErrorCode() == RESOURCE_BUSY || e.getErrorCode() == H2_LOCK_TIMEOUT) {
                return false;
            }
            throw e;
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
}
