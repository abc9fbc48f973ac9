package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How Oracle's errors are sorted ({@link StoreJdbc#failure}), from the error codes Oracle 11g's driver reports; no Oracle
 * runs here (see {@link OracleTestDatabase}), so the exceptions are built as the driver builds them.
 */
class SqlFailureTest {

    private static final String OPERATION = "writing the projections of 3 flight(s)";

    @Test
    void aDeadlockIsAConflictToRetry() {
        var failure = OracleDialect.ORACLE.failure(OPERATION,
                new SQLException("ORA-00060: deadlock detected while waiting for resource", "61000", 60));
        assertThat(failure).isInstanceOf(StoreConflictException.class)
                .hasMessageContaining("Oracle rolled back " + OPERATION);
    }

    @Test
    void aDeadlockOfOneRowOfABatchIsAConflictToRetry() {
        // the driver reports a failed batch as a BatchUpdateException with the row's error chained to it
        var batch = new java.sql.BatchUpdateException("ORA-00060 in a batch", "72000", 0, new int[0]);
        batch.setNextException(new SQLException("ORA-00060: deadlock detected while waiting for resource", "61000", 60));
        assertThat(OracleDialect.ORACLE.failure(OPERATION, batch)).isInstanceOf(StoreConflictException.class);
    }

    @Test
    void aSerializationFailureIsAConflictToRetry() {
        var failure = OracleDialect.ORACLE.failure(OPERATION,
                new SQLException("ORA-08177: can't serialize access for this transaction", "72000", 8177));
        assertThat(failure).isInstanceOf(StoreConflictException.class);
    }

    @Test
    void aLostSessionIsAnOutageNotAConflict() {
        var failure = OracleDialect.ORACLE.failure(OPERATION,
                new SQLException("ORA-03113: end-of-file on communication channel", "08006", 3113));
        assertThat(failure).isInstanceOf(StoreUnavailableException.class).isNotInstanceOf(StoreConflictException.class);
    }

    @Test
    void aUniqueViolationIsADefect() {
        var failure = OracleDialect.ORACLE.failure(OPERATION,
                new SQLException("ORA-00001: unique constraint (MSGX.PK_MSG_EVENT) violated", "23000", 1));
        assertThat(failure).isInstanceOf(StoreDefectException.class);
    }
}
