package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.AtomicUnit;
import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;
import io.msgx.adapter.jdbc.FailureCodes;
import io.msgx.adapter.jdbc.StoreFailures;
import io.msgx.adapter.jdbc.TransactionConnection;
import io.msgx.pipeline.store.ColumnText;
import io.msgx.pipeline.store.StoreUnavailableException;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The one JDBC helper of this adapter: where a repository's connection comes from (a pooled auto-commit connection
 * per call, or the one connection of an open transaction), binding and reading values, and how failures are
 * reported.
 *
 * <p><b>Failures.</b> {@link #run} turns a lost or refused connection, a statement or lock wait that timed out, or
 * a database shutting down into {@link StoreUnavailableException} naming the operation, and work rolled back for
 * another transaction's sake into {@link io.msgx.pipeline.store.StoreConflictException} (the caller retries either:
 * {@link #FAILURES}, the shared rule over Oracle's codes); any other SQL error is a defect and becomes
 * {@link OracleStoreException} carrying the SQLState and vendor code.
 *
 * <p><b>Values.</b> An {@link Instant} is bound as a {@link LocalDateTime} in UTC and read back the same way, so a
 * {@code TIMESTAMP} column holds the UTC wall-clock time whatever the session's or the JVM's time zone. A
 * {@link LocalDate} is bound as itself (an Oracle {@code DATE} at midnight). A {@link Clob} is bound as a character
 * stream, so a text of any length reaches a {@code CLOB} column. Oracle stores {@code ''} as NULL: a repository that
 * must give an empty text back reads it with {@link Row#textOrEmpty}.
 */
final class Sql {

    /** Work on one connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Session session) throws SQLException;
    }

    /** A text bound to a {@code CLOB} column. */
    record Clob(String text) {
    }

    /** Reads one row. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(Row row) throws SQLException;
    }

    /** The rule that sorts failures, over Oracle's codes (and SQLStates of its stand-in H2). */
    static final StoreFailures FAILURES = new StoreFailures(FailureCodes.ORACLE);

    private static final ZoneOffset UTC = ZoneOffset.UTC;

    /** The most bytes any VARCHAR2 column holds in 11g. */
    private static final int MAX_VARCHAR2_BYTES = 4000;

    private final DataSource dataSource;
    private final TransactionConnection transaction;

    private Sql(DataSource dataSource, TransactionConnection transaction) {
        this.dataSource = dataSource;
        this.transaction = transaction;
    }

    /** Each call borrows an auto-commit connection from {@code dataSource} and returns it. */
    static Sql autoCommit(DataSource dataSource) {
        return new Sql(dataSource, null);
    }

    /** Every call runs on the one connection of an open transaction. */
    static Sql inTransaction(TransactionConnection transaction) {
        return new Sql(null, transaction);
    }

    boolean isTransaction() {
        return transaction != null;
    }

    /** Run {@code work} as one port operation, sorting its failures (see the class comment). */
    <T> T run(String operation, Work<T> work) {
        if (transaction != null) {
            var connection = transaction.acquire();
            try {
                return work.run(new Session(connection));
            } catch (SQLException e) {
                throw failure(operation, e);
            }
        }
        try (var connection = borrow(operation)) {
            return work.run(new Session(connection));
        } catch (SQLException e) {
            throw failure(operation, e);
        }
    }

    /**
     * Run {@code work} as one unit: a transaction of its own in auto-commit, a savepoint inside the caller's
     * transaction. Rolled back when it throws or when {@code keep} refuses its result (which is still returned).
     */
    <T> T atomically(String operation, Work<T> work, Predicate<T> keep) {
        // Oracle has no RELEASE SAVEPOINT: a savepoint simply ends with its transaction.
        return run(operation, session -> AtomicUnit.run(session.connection, transaction != null,
                KeptSavepoint.LEFT_TO_THE_TRANSACTION, () -> work.run(session), keep));
    }

    private Connection borrow(String operation) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            // No connection at all (refused, pool closed or exhausted): unavailable whatever the code says.
            throw FAILURES.unavailable(operation, e);
        }
    }

    /**
     * {@link StoreUnavailableException} when {@code e} means unavailability,
     * {@link io.msgx.pipeline.store.StoreConflictException} when the work was rolled back to break a deadlock or a
     * serialization conflict ({@link #FAILURES}), else {@link OracleStoreException}.
     */
    static RuntimeException failure(String operation, SQLException e) {
        return FAILURES.retryable(operation, e).orElseGet(() -> new OracleStoreException(operation, e));
    }

    /**
     * The cleanup DELETE as one port operation: at most {@code limit} rows of {@code table} matching
     * {@code condition}, the first in {@code order} ({@code WHERE key IN (}{@link #firstRows}{@code )}, the 11g way),
     * the condition checked again on the rows deleted so that a row changed meanwhile stays. {@code key} is the key
     * column or columns; {@code condition} and {@code order} name the table's columns unqualified; {@code params} are
     * the condition's. Returns how many rows were deleted.
     */
    int deleteFirst(String operation, String table, String key, String condition, String order, int limit,
                    Object... params) {
        var keys = key.contains(",") ? "(" + key + ")" : key;
        var bound = new Object[2 * params.length + 1];
        System.arraycopy(params, 0, bound, 0, params.length);
        bound[params.length] = limit;
        System.arraycopy(params, 0, bound, params.length + 1, params.length);
        return run(operation, session -> session.update("DELETE FROM " + table + " WHERE " + keys + " IN ("
                + firstRows("SELECT " + key + " FROM " + table + " d WHERE (" + condition + ") ORDER BY " + order)
                + ") AND (" + condition + ")", bound));
    }

    // --- SQL text helpers ---

    /** {@code ?, ?, ?} for {@code count} values (an IN list; Oracle takes at most 1000). */
    static String marks(int count) {
        var joiner = new StringJoiner(", ");
        for (int i = 0; i < count; i++) {
            joiner.add("?");
        }
        return joiner.toString();
    }

    /** Oracle's IN lists hold at most 1000 values: the chunks to query. */
    static <T> List<List<T>> chunks(Collection<T> values) {
        var all = List.copyOf(values);
        var chunks = new ArrayList<List<T>>();
        for (int from = 0; from < all.size(); from += 1000) {
            chunks.add(all.subList(from, Math.min(all.size(), from + 1000)));
        }
        return chunks;
    }

    /** {@code query} limited to its first {@code ?} rows, in its order: the 11g way (no FETCH FIRST). */
    static String firstRows(String query) {
        return "SELECT * FROM (" + query + ") WHERE ROWNUM <= ?";
    }

    /**
     * Operator text cut to fit a {@code VARCHAR2(width CHAR)} column: at most {@code width} characters and at most
     * 4000 bytes in UTF-8 (11g's limit for any VARCHAR2, whatever its CHAR width), never splitting a surrogate pair.
     * The text is for operators, not worth a failed write.
     */
    static String fitted(String text, int width) {
        return ColumnText.fitted(text, width, MAX_VARCHAR2_BYTES);
    }

    // --- one connection's statements ---

    /** The statements of one operation on one connection. */
    static final class Session {

        final Connection connection;

        private Session(Connection connection) {
            this.connection = connection;
        }

        /** An INSERT, UPDATE, DELETE or MERGE; returns its row count. */
        int update(String sql, Object... params) throws SQLException {
            try (var statement = connection.prepareStatement(sql)) {
                bindAll(statement, params);
                return statement.executeUpdate();
            }
        }

        <T> List<T> list(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
            try (var statement = connection.prepareStatement(sql)) {
                bindAll(statement, params);
                try (ResultSet rows = statement.executeQuery()) {
                    var row = new Row(rows);
                    var values = new ArrayList<T>();
                    while (rows.next()) {
                        values.add(mapper.map(row));
                    }
                    return values;
                }
            }
        }

        <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
            var values = list(sql, mapper, params);
            if (values.size() > 1) {
                throw new IllegalStateException("expected at most one row, got " + values.size() + ": " + sql);
            }
            return values.stream().findFirst();
        }

        /** The next value of {@code sequence} (there is no RETURNING INTO here: the key is taken first). */
        long nextValue(String sequence) throws SQLException {
            return one("SELECT " + sequence + ".NEXTVAL FROM dual", row -> row.longValue(1)).orElseThrow();
        }

        /** One statement sent once for many parameter rows (JDBC batch). */
        Batch batch(String sql) throws SQLException {
            return new Batch(connection.prepareStatement(sql));
        }
    }

    /** A prepared statement collecting parameter rows; {@link #execute} sends them in one round trip. */
    static final class Batch implements AutoCloseable {

        private final PreparedStatement statement;
        private int rows;

        private Batch(PreparedStatement statement) {
            this.statement = statement;
        }

        void add(Object... params) throws SQLException {
            bindAll(statement, params);
            statement.addBatch();
            rows++;
        }

        /** Send the rows; returns each row's update count (none when no row was added). */
        int[] execute() throws SQLException {
            return rows > 0 ? statement.executeBatch() : new int[0];
        }

        /**
         * Send the rows; returns how many rows they changed in all. ojdbc 12c and later (here 19.x) report each
         * row's count for a batched statement; a driver answering {@link java.sql.Statement#SUCCESS_NO_INFO}
         * would make the sum meaningless, so that is refused as a defect rather than miscounted.
         */
        int executeCounting() throws SQLException {
            int total = 0;
            for (int count : execute()) {
                if (count < 0) {
                    throw new SQLException("the driver reported no row count (" + count + ") for a batched row; "
                            + "use ojdbc 12c or later, which reports them");
                }
                total += count;
            }
            return total;
        }

        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }

    private static void bindAll(PreparedStatement statement, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            bind(statement, i + 1, params[i]);
        }
    }

    private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            // NULL has no type in Oracle: a VARCHAR null fits any scalar column.
            statement.setNull(index, Types.VARCHAR);
        } else if (value instanceof Instant instant) {
            statement.setObject(index, LocalDateTime.ofInstant(instant, UTC));
        } else if (value instanceof LocalDate day) {
            statement.setObject(index, day);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Clob clob) {
            if (clob.text() == null) {
                statement.setNull(index, Types.CLOB);
            } else {
                statement.setCharacterStream(index, new StringReader(clob.text()), clob.text().length());
            }
        } else {
            throw new IllegalArgumentException("no binding for " + value.getClass().getName() + ": " + value);
        }
    }

    /** The current row of a result, read by column label or position. */
    static final class Row {

        private final ResultSet rows;

        private Row(ResultSet rows) {
            this.rows = rows;
        }

        String text(String column) throws SQLException {
            return rows.getString(column);
        }

        /**
         * A text whose empty value the domain keeps as {@code ""}: Oracle stored it as NULL, so NULL reads back as
         * {@code ""}. Only for columns that are never NULL otherwise.
         */
        String textOrEmpty(String column) throws SQLException {
            var text = rows.getString(column);
            return text == null ? "" : text;
        }

        long longValue(String column) throws SQLException {
            return rows.getLong(column);
        }

        long longValue(int column) throws SQLException {
            return rows.getLong(column);
        }

        Long nullableLong(String column) throws SQLException {
            long value = rows.getLong(column);
            return rows.wasNull() ? null : value;
        }

        int intValue(String column) throws SQLException {
            return rows.getInt(column);
        }

        Integer nullableInt(String column) throws SQLException {
            int value = rows.getInt(column);
            return rows.wasNull() ? null : value;
        }

        Instant instant(String column) throws SQLException {
            var local = rows.getObject(column, LocalDateTime.class);
            return local == null ? null : local.toInstant(UTC);
        }

        LocalDate day(String column) throws SQLException {
            var local = rows.getObject(column, LocalDateTime.class);
            return local == null ? null : local.toLocalDate();
        }
    }
}
