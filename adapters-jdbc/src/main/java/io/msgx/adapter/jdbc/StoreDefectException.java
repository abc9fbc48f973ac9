package io.msgx.adapter.jdbc;

import java.sql.SQLException;

/**
 * The database refused a statement for a reason that is neither an outage nor a conflict: a defect (a constraint the
 * adapter should have respected, a value too wide, a schema that is not the one the adapter's migration builds). Not
 * retried; the message names the database and the operation, {@link #sqlState()} and {@link #vendorCode()} the
 * database's reason.
 */
public final class StoreDefectException extends RuntimeException {

    private final String sqlState;
    private final int vendorCode;

    public StoreDefectException(String database, String operation, SQLException cause) {
        super(database + " refused " + operation + ": " + cause.getMessage(), cause);
        this.sqlState = cause.getSQLState();
        this.vendorCode = cause.getErrorCode();
    }

    public String sqlState() {
        return sqlState;
    }

    /** The database's own number for the error (on Oracle the ORA number: 1 for ORA-00001). */
    public int vendorCode() {
        return vendorCode;
    }
}
