package io.msgx.adapter.oracle;

import java.sql.SQLException;

/**
 * Oracle refused a statement for a reason that is not unavailability: a defect (a constraint the adapter should
 * have respected, a value too wide, a schema that is not the one {@link OracleSchema} builds). Not retried; the
 * message names the operation, and {@link #sqlState()} and {@link #vendorCode()} the database's reason.
 */
public final class OracleStoreException extends RuntimeException {

    private final String sqlState;
    private final int vendorCode;

    OracleStoreException(String operation, SQLException cause) {
        super("Oracle refused " + operation + ": " + cause.getMessage(), cause);
        this.sqlState = cause.getSQLState();
        this.vendorCode = cause.getErrorCode();
    }

    public String sqlState() {
        return sqlState;
    }

    /** The ORA number on Oracle (1 for ORA-00001). */
    public int vendorCode() {
        return vendorCode;
    }
}
