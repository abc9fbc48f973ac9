package io.msgx.adapter.jdbc;

import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.h2.jdbc.JdbcSQLNonTransientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How each store's failures are sorted: every code of {@link FailureCodes#POSTGRESQL} and {@link FailureCodes#ORACLE}
 * (the sets are spelled out here, so a code dropped or added by mistake fails), the rules JDBC gives every database,
 * and the search through causes and batch rows. No database runs: the exceptions are built as the drivers build them.
 */
class StoreFailuresTest {

    private static final String OPERATION = "writing the projections of 3 flight(s)";
    private static final StoreFailures POSTGRESQL = new StoreFailures(FailureCodes.POSTGRESQL);
    private static final StoreFailures ORACLE = new StoreFailures(FailureCodes.ORACLE);

    @Test
    void theCodeSetsAreTheStoresOwn() {
        assertThat(FailureCodes.POSTGRESQL.unavailable().sqlStates())
                .containsExactlyInAnyOrder("57014", "55P03", "57P01", "57P02", "57P03");
        assertThat(FailureCodes.POSTGRESQL.conflict().sqlStates()).containsExactlyInAnyOrder("40001", "40P01");
        assertThat(FailureCodes.POSTGRESQL.uniqueKey().sqlStates()).containsExactly("23505");
        assertThat(FailureCodes.POSTGRESQL.unavailable().vendorCodes()).isEmpty();
        assertThat(FailureCodes.POSTGRESQL.conflict().vendorCodes()).isEmpty();
        assertThat(FailureCodes.POSTGRESQL.uniqueKey().vendorCodes()).isEmpty();
        assertThat(FailureCodes.POSTGRESQL.standInDrivers()).isEmpty();

        assertThat(FailureCodes.ORACLE.unavailable().sqlStates()).containsExactly("HYT00");
        assertThat(FailureCodes.ORACLE.unavailable().vendorCodes()).containsExactlyInAnyOrder(
                54, 28, 1012, 1013, 1033, 1034, 1089, 1090, 1092, 2396, 3113, 3114, 3135, 12170, 12514, 12516, 12520,
                12521, 12528, 12537, 12541, 12543, 12571, 25408, 30006, 17002, 17008, 17009, 17410, 17447);
        assertThat(FailureCodes.ORACLE.conflict().sqlStates()).containsExactlyInAnyOrder("40001", "40P01");
        assertThat(FailureCodes.ORACLE.conflict().vendorCodes()).containsExactlyInAnyOrder(60, 8177);
        assertThat(FailureCodes.ORACLE.uniqueKey().sqlStates()).containsExactly("23505");
        assertThat(FailureCodes.ORACLE.uniqueKey().vendorCodes()).containsExactly(1);
        assertThat(FailureCodes.ORACLE.standInDrivers()).containsExactly("org.h2.");
    }

    // --- unavailable ---

    @ParameterizedTest
    @ValueSource(strings = {"57014", "55P03", "57P01", "57P02", "57P03"})
    void postgresqlStatesOfAnOutageAreUnavailableNamingTheDatabaseAndTheOperation(String state) {
        var failure = POSTGRESQL.retryable(OPERATION, new SQLException("ERROR: something", state));
        assertThat(failure).get().isInstanceOf(StoreUnavailableException.class)
                .isNotInstanceOf(StoreConflictException.class)
                .extracting(Throwable::getMessage).asString()
                .startsWith("PostgreSQL unavailable during " + OPERATION + " (ERROR: something)")
                .endsWith("nothing of it is committed unless stated otherwise: retry later");
    }

    @ParameterizedTest
    @ValueSource(ints = {54, 28, 1012, 1013, 1033, 1034, 1089, 1090, 1092, 2396, 3113, 3114, 3135, 12170, 12514, 12516,
            12520, 12521, 12528, 12537, 12541, 12543, 12571, 25408, 30006, 17002, 17008, 17009, 17410, 17447})
    void oracleCodesOfAnOutageAreUnavailableNamingTheDatabaseAndTheOperation(int code) {
        var failure = ORACLE.retryable(OPERATION, new SQLException("ORA-" + code + ": gone", "72000", code));
        assertThat(failure).get().isInstanceOf(StoreUnavailableException.class)
                .isNotInstanceOf(StoreConflictException.class)
                .extracting(Throwable::getMessage).asString()
                .startsWith("Oracle unavailable during " + OPERATION + " (ORA-" + code + ": gone)");
    }

    @Test
    void h2sLockTimeoutIsUnavailableOnTheOracleStandIn() {
        assertThat(ORACLE.isUnavailable(h2("Timeout trying to lock table", "HYT00", 50200))).isTrue();
        assertThat(POSTGRESQL.isUnavailable(new SQLException("timeout", "HYT00"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"08000", "08001", "08003", "08006", "08S01"})
    void sqlStateClass08IsUnavailableOnEveryDatabase(String state) {
        assertThat(POSTGRESQL.isUnavailable(new SQLException("connection", state))).isTrue();
        assertThat(ORACLE.isUnavailable(new SQLException("connection", state))).isTrue();
        assertThat(ORACLE.isUnavailable(h2("connection", state, 90067))).isTrue();
    }

    @Test
    void theDriversConnectionTimeoutAndRecoverableExceptionsAreUnavailableOnEveryDatabase() {
        for (var failure : new SQLException[] {new SQLTransientConnectionException("pool empty"),
                new SQLNonTransientConnectionException("closed"), new SQLTimeoutException("query timeout"),
                new SQLRecoverableException("IO error")}) {
            assertThat(POSTGRESQL.isUnavailable(failure)).as(failure.toString()).isTrue();
            assertThat(ORACLE.isUnavailable(failure)).as(failure.toString()).isTrue();
        }
    }

    @Test
    void unavailableSaysSoWhateverTheCause() {
        var failure = ORACLE.unavailable("opening a connection for a transaction",
                new SQLException("ORA-01017: invalid username/password", "72000", 1017));
        assertThat(failure).isExactlyInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("Oracle unavailable during opening a connection for a transaction "
                        + "(ORA-01017: invalid username/password)");
    }

    // --- conflict ---

    @ParameterizedTest
    @ValueSource(strings = {"40001", "40P01"})
    void serializationFailuresAndDeadlocksAreConflictsOnBothStores(String state) {
        assertThat(POSTGRESQL.retryable(OPERATION, new SQLException("ERROR: deadlock detected", state))).get()
                .isInstanceOf(StoreConflictException.class)
                .extracting(Throwable::getMessage).asString()
                .isEqualTo("PostgreSQL rolled back " + OPERATION + " to resolve a conflict with another transaction "
                        + "(ERROR: deadlock detected); nothing of it is committed: retry");
        assertThat(ORACLE.retryable(OPERATION, h2("Deadlock detected", state, 40001))).get()
                .isInstanceOf(StoreConflictException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 8177})
    void oraclesDeadlockAndSerializationCodesAreConflicts(int code) {
        assertThat(ORACLE.retryable(OPERATION, new SQLException("ORA-0" + code, "61000", code))).get()
                .isInstanceOf(StoreConflictException.class)
                .extracting(Throwable::getMessage).asString()
                .startsWith("Oracle rolled back " + OPERATION + " to resolve a conflict");
        assertThat(POSTGRESQL.isConflict(new SQLException("ORA-0" + code, "61000", code))).isFalse();
    }

    @Test
    void aStandInsOwnCodesAreNotOraclesCodes() {
        // H2's exceptions carry H2's codes: an H2 code equal to an ORA number means nothing here.
        assertThat(ORACLE.isConflict(h2("not a deadlock", "42000", 60))).isFalse();
        assertThat(ORACLE.isUnavailable(h2("not a lost session", "42000", 3113))).isFalse();
        assertThat(ORACLE.isUniqueViolation(h2("not ORA-00001", "23000", 1))).isFalse();
    }

    // --- unique key ---

    @Test
    void aUniqueViolationIsTheStateOrTheVendorCodeOfAnIntegrityViolation() {
        assertThat(ORACLE.isUniqueViolation(new SQLException("ORA-00001: unique constraint", "23000", 1))).isTrue();
        assertThat(ORACLE.isUniqueViolation(h2("Unique index or primary key violation", "23505", 23505))).isTrue();
        assertThat(ORACLE.isUniqueViolation(new SQLException("code 1, not an integrity violation", "42000", 1)))
                .isFalse();
        assertThat(ORACLE.isUniqueViolation(new SQLException("ORA-01400: cannot insert NULL", "23000", 1400)))
                .isFalse();
        assertThat(POSTGRESQL.isUniqueViolation(new SQLException("ERROR: duplicate key", "23505"))).isTrue();
        assertThat(POSTGRESQL.isUniqueViolation(new SQLException("no state"))).isFalse();
    }

    @Test
    void aUniqueViolationIsFoundOnABatchRowAndInsideTheStoresDefect() {
        var batch = new BatchUpdateException("Batch entry 2 was aborted", null, 0, new int[0]);
        batch.setNextException(new SQLException("ERROR: duplicate key", "23505"));
        assertThat(POSTGRESQL.holdsUniqueViolation(batch)).isTrue();
        assertThat(ORACLE.holdsUniqueViolation(new StoreDefectException("Oracle", OPERATION,
                new SQLException("ORA-00001: unique constraint", "23000", 1)))).isTrue();
        assertThat(POSTGRESQL.holdsUniqueViolation(new StoreDefectException("PostgreSQL", OPERATION,
                new SQLException("ERROR: null value violates not-null constraint", "23502")))).isFalse();
        assertThat(POSTGRESQL.holdsUniqueViolation(new IllegalStateException("not SQL at all"))).isFalse();
    }

    @Test
    void aUniqueViolationIsADefectNotARetry() {
        assertThat(POSTGRESQL.retryable(OPERATION, new SQLException("ERROR: duplicate key", "23505"))).isEmpty();
        assertThat(ORACLE.retryable(OPERATION, new SQLException("ORA-00001", "23000", 1))).isEmpty();
    }

    @Test
    void anErrorWithoutStateOrKnownCodeIsADefect() {
        assertThat(POSTGRESQL.retryable(OPERATION, new SQLException("something"))).isEmpty();
        assertThat(ORACLE.retryable(OPERATION, new SQLException("ORA-00942: table or view does not exist", "42000",
                942))).isEmpty();
        assertThat(ORACLE.retryable(OPERATION, new IllegalStateException("not SQL at all"))).isEmpty();
    }

    // --- the search ---

    @Test
    void theCauseChainIsSearchedToItsEnd() {
        var deep = new RuntimeException("jOOQ", new IllegalStateException("wrapper",
                new SQLException("ERROR: canceling statement due to statement timeout", "57014")));
        assertThat(POSTGRESQL.retryable(OPERATION, deep)).get().isInstanceOf(StoreUnavailableException.class)
                .extracting(Throwable::getMessage).asString()
                .contains("(ERROR: canceling statement due to statement timeout)");
    }

    @Test
    void aBatchRowsChainedExceptionIsSearched() {
        var batch = new BatchUpdateException("Batch entry 3 was aborted", null, 0, new int[0]);
        batch.setNextException(new SQLException("ERROR: deadlock detected", "40P01"));
        assertThat(POSTGRESQL.isConflict(new RuntimeException(batch))).isTrue();

        var oracleBatch = new BatchUpdateException("ORA-03113 in a batch", "72000", 0, new int[0]);
        oracleBatch.setNextException(new SQLException("ORA-03113: end-of-file on communication channel", "72000",
                3113));
        assertThat(ORACLE.isUnavailable(oracleBatch)).isTrue();
    }

    @Test
    void theCausesOfChainedExceptionsAndTheChainsOfCausesAreSearched() {
        var row = new SQLException("row 2 failed", "72000", 0,
                new SQLException("ORA-00060: deadlock detected", "61000", 60));
        var batch = new BatchUpdateException("batch", "72000", 0, new int[0]);
        batch.setNextException(new SQLException("row 1"));
        batch.getNextException().setNextException(row);
        assertThat(ORACLE.isConflict(new RuntimeException("wrapper", batch))).isTrue();
    }

    @Test
    void aCycleOfExceptionsEndsTheSearch() {
        var first = new SQLException("first", "42000");
        var second = new SQLException("second", "42000");
        first.setNextException(second);
        second.setNextException(first);
        var causeA = new IllegalStateException("a");
        var causeB = new IllegalStateException("b", causeA);
        causeA.initCause(causeB);
        assertThat(POSTGRESQL.isUnavailable(first)).isFalse();
        assertThat(ORACLE.isConflict(causeA)).isFalse();
    }

    // --- run ---

    @Test
    void runReturnsTheResultOfWorkThatSucceeds() {
        assertThat(POSTGRESQL.run(OPERATION, () -> 42)).isEqualTo(42);
    }

    @Test
    void runTranslatesARetryableFailureNamingTheOperation() {
        assertThatThrownBy(() -> POSTGRESQL.run(OPERATION, () -> {
            throw new IllegalStateException("SQL [...]", new SQLException("ERROR: terminating connection", "57P01"));
        })).isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("PostgreSQL unavailable during " + OPERATION);
    }

    @Test
    void runLetsADefectAndAnOutageAlreadyNamedPropagateUnchanged() {
        var defect = new IllegalStateException("SQL [...]", new SQLException("ERROR: syntax error", "42601"));
        assertThatThrownBy(() -> ORACLE.run(OPERATION, () -> {
            throw defect;
        })).isSameAs(defect);
        var named = new StoreUnavailableException("Oracle unavailable during an inner operation",
                new SQLException("closed", "08003"));
        assertThatThrownBy(() -> ORACLE.run(OPERATION, () -> {
            throw named;
        })).isSameAs(named);
    }

    private static SQLException h2(String message, String state, int code) {
        return new JdbcSQLNonTransientException(message, null, state, code, null, null);
    }
}
