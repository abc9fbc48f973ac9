package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the databases behind {@link StoreJdbc} differ, in one place per database: how a failure is sorted; how a row limit,
 * a sequence's next value, a generated key, an upsert, a set of keys, a many-row write, a column named by a protocol
 * code, a code-point order and a transaction's lock are written; how times, nulls and long texts are bound and read;
 * and what a savepoint does once its unit is kept. Everything else a
 * shared repository writes is standard SQL that both PostgreSQL and Oracle 11g read alike (unquoted upper-case names,
 * which PostgreSQL folds to its lower-case tables).
 */
public interface SqlDialect {

    /** How the rows of a set of keys are found, for a database whose planner tells the two ways apart. */
    enum KeyLookup {
        /** Few rows a key, each key looked up in the column's index (a primary key, a code-share master's children). */
        BY_INDEX,
        /** Rows of a key that is not unique, in a table that may grow faster than its statistics (a detail table). */
        BY_JOIN
    }

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

    /** An expression giving the next value of {@code sequence}, for an INSERT's {@code VALUES} list. */
    String sequenceNext(String sequence);

    /** The type of the time columns, for a {@code CAST} that must name it. */
    String timestampType();

    /**
     * The value of a generated key in an INSERT's {@code VALUES} list: the next value of {@code sequence} on Oracle,
     * {@code DEFAULT} (the identity column's own) on PostgreSQL.
     */
    String generatedKey(String sequence);

    /**
     * An INSERT of one row into {@code table} that leaves a row already holding its key alone (and counts 0); the key
     * is the first {@code keyColumns} of {@code columns}. Two racing inserts of one key may still end in a unique
     * violation, which the caller takes as "present" ({@link StoreFailures#isUniqueViolation}).
     */
    RowStatement insertUnlessPresent(String table, int keyColumns, String... columns);

    /**
     * An INSERT of one row into {@code table} that updates the other columns of a row already holding its key; the
     * key is the first {@code keyColumns} of {@code columns}.
     */
    RowStatement upsert(String table, int keyColumns, String... columns);

    /**
     * A text column as an expression no index matches, for re-checking rows already found by their keys (a state
     * still owed): so that the planner cannot walk a partial index for the re-check instead of the keys (D-42).
     */
    String recheck(String column);

    /** True when the database stores {@code ''} as NULL (Oracle). */
    boolean storesEmptyTextAsNull();

    /** True when a failed statement aborts the whole transaction (PostgreSQL), so it must run under a savepoint. */
    boolean failedStatementAbortsTransaction();

    /**
     * A column named by a protocol code ({@code FLNO}, {@code DESC}) as a statement writes it: quoted, so that a
     * reserved word is a name too, in the case the database's schema gave the column.
     */
    String column(String code);

    /**
     * The conditions that {@code column} holds one of {@code keys}, each with its bind values, one for each statement
     * to send; none for no keys. Standard SQL's {@code column IN (?, ?, ...)}, at most 1000 keys each (Oracle's most).
     */
    default List<StoreJdbc.Condition> oneOf(String column, KeyLookup lookup, List<?> keys) {
        return StoreJdbc.chunks(keys).stream()
                .map(chunk -> new StoreJdbc.Condition(column + " IN (" + StoreJdbc.marks(chunk.size()) + ")", chunk.toArray()))
                .toList();
    }

    /**
     * Inserts {@code rows} into {@code table}, each row's values in {@code columns} order; nothing is sent for no rows.
     * Standard SQL: one single-row INSERT sent as a JDBC batch.
     */
    default void insertAll(StoreJdbc.Session session, String table, List<StoreJdbc.Column> columns, List<Object[]> rows)
            throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        var names = columns.stream().map(StoreJdbc.Column::name).toList();
        try (var batch = session.batch("INSERT INTO " + table + " (" + String.join(", ", names) + ") VALUES ("
                + StoreJdbc.marks(names.size()) + ")")) {
            for (var row : rows) {
                batch.add(row);
            }
            batch.execute();
        }
    }

    /**
     * Inserts {@code rows} into {@code table} as {@link #insertAll} does, except that a row whose key (the first of
     * {@code columns}) is present already updates that row instead: every column but the key and {@code kept}.
     * Nothing is sent for no rows.
     */
    void upsertAll(StoreJdbc.Session session, String table, List<StoreJdbc.Column> columns, Set<String> kept, List<Object[]> rows)
            throws SQLException;

    /**
     * Inserts one row into {@code table} and reads the new row's {@code returned} columns with {@code mapper}. Its
     * {@code key} is generated: PostgreSQL's identity column fills it, and {@code INSERT ... RETURNING} gives the row
     * back in one statement; Oracle takes the next value of {@code sequence} first (11g has no identity column),
     * inserts it, and selects the row by it. {@code values} are bound in the order of {@code columns}
     * (comma-separated, without the key).
     */
    <T> T insertReturning(StoreJdbc.Session session, String table, String key, String sequence, String columns,
                          String returned, StoreJdbc.RowMapper<T> mapper, Object... values) throws SQLException;

    /**
     * The upsert of one row into {@code table} that leaves a row written by a later writer alone: the row is inserted
     * when no row holds its {@code key} columns, else its {@code columns} overwrite the present row's unless that
     * row's {@code writer} column (one of {@code columns}) is greater than the new row's (NULL never is); counted 0
     * then. Oracle writes it as a {@code MERGE}, PostgreSQL as an {@code INSERT ... ON CONFLICT DO UPDATE}; the two
     * bind the row's values in different orders, so {@link RowStatement#params} takes them in the same order on both:
     * the {@code key} columns' values, then the {@code columns}' values.
     */
    RowStatement upsertUnlessLater(String table, List<String> key, List<String> columns, String writer);

    /**
     * {@code column} as an {@code ORDER BY} term that sorts its text in code-point order: PostgreSQL collates it as
     * {@code "C"} whatever the database's collation; Oracle leaves it to the session's sort, which is binary under
     * {@code NLS_SORT=BINARY} (the default, which the Oracle store asks of its data source).
     */
    String inCodePointOrder(String column);

    /**
     * A query that waits for, then holds until the transaction ends, a lock named by its one parameter, so that work
     * under one name is serialised (PostgreSQL: a transaction-scoped advisory lock on the name's hash; two names
     * sharing a hash only wait for each other). Empty where the database has none without extra grants (Oracle 11g:
     * {@code DBMS_LOCK}): its callers are serialised by a unique index instead, and try again after its violation,
     * which Oracle's transaction survives.
     */
    Optional<String> transactionLock();

    /**
     * A query of one row and one column {@code NOW}: the database's clock, read as an instant by {@link StoreJdbc.Row#instant}.
     * What the leader lease measures time by, so that every instance agrees on when it expires (D-108).
     */
    String currentTime();

    /**
     * What follows a {@code SELECT} of one row to lock it against updates while letting other transactions take the
     * same lock (PostgreSQL {@code FOR SHARE}); where the database has no shared row lock, an exclusive one (Oracle
     * {@code FOR UPDATE}: the lockers then queue).
     */
    String sharedRowLock();

    /**
     * What follows a {@code SELECT} to lock its rows for update waiting at most {@code wait} (Oracle
     * {@code FOR UPDATE WAIT n}); where the bound is a setting of the transaction instead, the statement that sets it
     * comes from {@link #lockTimeout}.
     */
    String forUpdateWithin(java.time.Duration wait);

    /** The statement bounding this transaction's lock waits to {@code wait} (PostgreSQL {@code SET LOCAL lock_timeout}), if any. */
    Optional<String> lockTimeout(java.time.Duration wait);

    /** Whether {@code e} is a lock wait that ran out ({@link #forUpdateWithin}, {@link #lockTimeout}), not a failure. */
    boolean isLockWaitOver(java.sql.SQLException e);

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

    /**
     * A statement written for one row: its SQL, the row's columns in the order their values are given, and the column
     * whose value each of its parameters binds, in parameter order.
     */
    record RowStatement(String sql, List<String> row, List<String> parameters) {

        public RowStatement {
            row = List.copyOf(row);
            parameters = List.copyOf(parameters);
        }

        /** The parameters for one row, given its values in {@link #row} order. */
        public Object[] params(Object... values) {
            if (values.length != row.size()) {
                throw new IllegalArgumentException(row.size() + " values expected (" + row + "), got "
                        + values.length);
            }
            return parameters.stream().map(column -> values[row.indexOf(column)]).toArray();
        }
    }

    /** A defect: any failure {@link #failures()} does not call an outage or a conflict. */
    default RuntimeException failure(String operation, SQLException e) {
        return failures().retryable(operation, e).orElseGet(() -> new StoreDefectException(database(), operation, e));
    }
}
