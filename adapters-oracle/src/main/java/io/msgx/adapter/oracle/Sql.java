package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Savepoint;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The one JDBC helper of this adapter: where a repository's connection comes from (a pooled auto-commit connection
 * per call, or the one connection of an open transaction), binding and reading values, and the rule that sorts
 * failures.
 *
 * <p><b>Failures.</b> {@link #run} turns a lost or refused connection, a statement or lock wait that timed out, or
 * a database shutting down into {@link StoreUnavailableException} naming the operation (the caller retries); any
 * other SQL error is a defect and becomes {@link OracleStoreException} carrying the SQLState and vendor code.
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

    /**
     * Oracle error codes that mean "the database is not there right now" rather than "this statement is wrong":
     * resource busy (NOWAIT / WAIT n expired), session killed, not logged on, user requested cancel (a query
     * timeout), the instance starting, shutting down or gone, end of file on the communication channel, the
     * listener refusing, the connection lost, closed or timed out in the driver.
     */
    private static final Set<Integer> UNAVAILABLE_ORACLE_CODES = Set.of(
            54, 28, 1012, 1013, 1033, 1034, 1089, 1090, 1092, 2396, 3113, 3114, 3135, 12170, 12514, 12516, 12520,
            12521, 12528, 12537, 12541, 12543, 12571, 25408, 30006, 17002, 17008, 17009, 17410, 17447);

    /**
     * Oracle error codes of work rolled back for another transaction's sake: deadlock detected (ORA-00060: Oracle
     * rolls back only the statement; the transaction around it is rolled back by its caller) and can't serialize
     * access (ORA-08177).
     */
    private static final Set<Integer> CONFLICT_ORACLE_CODES = Set.of(60, 8177);

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
        if (transaction != null) {
            return run(operation, session -> {
                Savepoint savepoint = session.connection.setSavepoint();
                T result;
                try {
                    result = work.run(session);
                } catch (SQLException | RuntimeException | Error e) {
                    rollbackTo(session.connection, savepoint, e);
                    throw e;
                }
                if (!keep.test(result)) {
                    session.connection.rollback(savepoint);
                }
                // Oracle has no RELEASE SAVEPOINT: a savepoint simply ends with its transaction.
                return result;
            });
        }
        try (var connection = borrow(operation)) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(new Session(connection));
                if (keep.test(result)) {
                    connection.commit();
                } else {
                    connection.rollback();
                }
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                rollback(connection, e);
                throw e;
            } finally {
                restoreAutoCommit(connection);
            }
        } catch (SQLException e) {
            throw failure(operation, e);
        }
    }

    private Connection borrow(String operation) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            // No connection at all (refused, pool closed or exhausted): unavailable whatever the code says.
            throw unavailable(operation, e);
        }
    }

    private static void rollbackTo(Connection connection, Savepoint savepoint, Throwable cause) {
        try {
            connection.rollback(savepoint);
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    static void rollback(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    static void restoreAutoCommit(Connection connection) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // A broken connection: the pool discards it on close.
        }
    }

    // --- the failure rule ---

    /**
     * {@link StoreUnavailableException} when {@code e} means unavailability, {@link StoreConflictException} when the
     * work was rolled back to break a deadlock or a serialization conflict, else {@link OracleStoreException}.
     */
    static RuntimeException failure(String operation, SQLException e) {
        if (isUnavailable(e)) {
            return unavailable(operation, e);
        }
        if (isConflict(e)) {
            return new StoreConflictException("Oracle rolled back " + operation + " to resolve a conflict with another "
                    + "transaction (" + rootMessage(e) + "); nothing of it is committed: retry", e);
        }
        return new OracleStoreException(operation, e);
    }

    /** ORA-00060 or ORA-08177 on Oracle; SQLState 40001 (H2's deadlock) or 40P01 elsewhere. */
    static boolean isConflict(SQLException e) {
        return anyInChain(e, t -> t instanceof SQLException sql
                && ((isOracle(sql) && CONFLICT_ORACLE_CODES.contains(sql.getErrorCode()))
                || "40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState())));
    }

    /**
     * Whether {@code failure}, its causes, or an exception chained to any of them by {@code getNextException} (where
     * a JDBC batch reports the row that failed) satisfies {@code test}.
     */
    private static boolean anyInChain(Throwable failure, Predicate<Throwable> test) {
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        var pending = new ArrayDeque<Throwable>();
        pending.add(failure);
        while (!pending.isEmpty()) {
            var t = pending.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (test.test(t)) {
                return true;
            }
            if (t.getCause() != null) {
                pending.add(t.getCause());
            }
            if (t instanceof SQLException sql && sql.getNextException() != null) {
                pending.add(sql.getNextException());
            }
        }
        return false;
    }

    static StoreUnavailableException unavailable(String operation, Throwable cause) {
        return new StoreUnavailableException("Oracle unavailable during " + operation + " (" + rootMessage(cause)
                + "); nothing of it is committed unless stated otherwise: retry later", cause);
    }

    /**
     * True when the cause chain (with a batch's chained row exceptions) holds a connection failure (SQLState class
     * 08, or the driver's connection and recoverable exceptions), a timeout, or one of {@link #UNAVAILABLE_ORACLE_CODES}.
     */
    static boolean isUnavailable(Throwable failure) {
        return anyInChain(failure, t -> {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLTimeoutException || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                var state = sql.getSQLState();
                return (state != null && (state.startsWith("08") || state.equals("HYT00")))
                        || (isOracle(sql) && UNAVAILABLE_ORACLE_CODES.contains(sql.getErrorCode()));
            }
            return false;
        });
    }

    /** A unique or primary-key violation: ORA-00001 on Oracle, SQLState 23505 on H2. */
    static boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState())
                || (e.getErrorCode() == 1 && e.getSQLState() != null && e.getSQLState().startsWith("23"));
    }

    /** H2 reports its own error codes (5 digits, equal to the SQLState's number); Oracle's are ORA numbers. */
    private static boolean isOracle(SQLException e) {
        return !e.getClass().getName().startsWith("org.h2.");
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
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
        if (text == null) {
            return null;
        }
        int end = Math.min(text.length(), width);
        int bytes = 0;
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            int size = c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
            if (bytes + size > MAX_VARCHAR2_BYTES) {
                end = i;
                break;
            }
            bytes += size;
        }
        if (end < text.length() && end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return end == text.length() ? text : text.substring(0, end);
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
