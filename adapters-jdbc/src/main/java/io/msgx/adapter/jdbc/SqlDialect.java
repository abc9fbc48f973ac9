package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Where the databases behind {@link Sql} differ, in one place per database: how a failure is sorted, how a row limit,
 * a sequence's next value and the one-row table are written, how times, nulls and long texts are bound and read, and
 * what a savepoint does once its unit is kept. Everything else a shared repository writes is standard SQL that both
 * PostgreSQL and Oracle 11g read alike (unquoted upper-case names, which PostgreSQL folds to its lower-case tables).
 */
public interface SqlDialect {

    /** The database's name, as failures report it ("PostgreSQL", "Oracle"). */
    String database();

    /** The rule that sorts this database's failures into outage, conflict and defect. */
    StoreFailures failures();

    /** What becomes of a unit's savepoint when its result is kept. */
    KeptSavepoint keptSavepoint();

    /** {@code query} limited to its first rows, in its order; the limit is bound as the last parameter. */
    String firstRows(String query);

    /** A query whose one row and column is the next value of {@code sequence}. */
    String nextValue(String sequence);

    /**
     * The value of a generated key in an INSERT's {@code VALUES} list: the next value of {@code sequence} on Oracle,
     * {@code DEFAULT} (the identity column's own) on PostgreSQL.
     */
    String generatedKey(String sequence);

    /**
     * An INSERT of one row into {@code table} ({@code columns}, bound in order) that leaves a row already holding its
     * {@code key} alone and counts 0. Where the database has no such INSERT (Oracle) it is a plain one, whose unique
     * violation the caller takes as "present" ({@link StoreFailures#isUniqueViolation}); Oracle keeps the transaction
     * after a failed statement.
     */
    String insertUnlessPresent(String table, String key, String... columns);

    /** The most bytes a {@code VARCHAR} column holds whatever its declared width ({@link Integer#MAX_VALUE}: none). */
    int maxVarcharBytes();

    /** Binds an instant to a time column, so that it reads back as the same instant whatever the session's zone. */
    void bindInstant(PreparedStatement statement, int index, Instant value) throws SQLException;

    /** Reads a time column written by {@link #bindInstant}; {@code null} when NULL. */
    Instant instant(ResultSet rows, String column) throws SQLException;

    /** Reads a {@code DATE} column as a day; {@code null} when NULL. */
    LocalDate day(ResultSet rows, String column) throws SQLException;

    /** Binds NULL so that it fits any scalar column. */
    void bindNull(PreparedStatement statement, int index) throws SQLException;

    /** Binds a text of any length to a long-text column ({@code CLOB}, {@code TEXT}). */
    void bindLongText(PreparedStatement statement, int index, String text) throws SQLException;

    /** A defect: any failure {@link #failures()} does not call an outage or a conflict. */
    default RuntimeException failure(String operation, SQLException e) {
        return failures().retryable(operation, e).orElseGet(() -> new StoreDefectException(database(), operation, e));
    }
}
