package io.msgx.adapter.jdbc;

import io.msgx.pipeline.store.ColumnText;
import io.msgx.pipeline.store.StoreUnavailableException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The one JDBC helper of the store adapters: where a repository's connection comes from (a pooled auto-commit
 * connection per call, or the one connection of an open transaction), binding and reading values, and how failures
 * are reported; the database's own ways come from its {@link SqlDialect}.
 *
 * <p><b>Failures.</b> {@link #run} turns a lost or refused connection, a statement or lock wait that timed out, or
 * a database shutting down into {@link StoreUnavailableException} naming the operation, and work rolled back for
 * another transaction's sake into {@link io.msgx.pipeline.store.StoreConflictException} (the caller retries either);
 * any other SQL error is a defect and becomes {@link StoreDefectException} carrying the SQLState and vendor code.
 *
 * <p><b>Values.</b> An {@link Instant} is bound and read by the dialect so that it reads back as the same instant
 * whatever the session's or the JVM's time zone. A {@link LocalDate} is bound as itself. A {@link LongText} reaches a
 * {@code CLOB} or {@code TEXT} column whatever its length. A {@code String[]} or {@code Long[]} is one SQL array
 * (PostgreSQL's set of keys, {@link SqlDialect#oneOf}; Oracle's dialect binds none). A {@link Condition} given as a
 * parameter stands for its values. Oracle stores {@code ''} as NULL:
 * a repository that must give an empty text back reads it with {@link Row#textOrEmpty}.
 */
public final class StoreJdbc {

    /** Work on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Session session) throws SQLException;
    }

    /** A text bound to a long-text column ({@code CLOB} on Oracle, {@code TEXT} on PostgreSQL). */
    public record LongText(String text) {
    }

    /**
     * A column of a many-row write ({@link SqlDialect#insertAll}): its name as the statement writes it, and the Java
     * type of its values, which a database that sends each column as one array casts that array to.
     */
    public record Column(String name, Class<?> type) {
    }

    /**
     * A condition of a statement ({@link SqlDialect#oneOf}) and the values bound to its {@code ?}s, in order. Given as
     * one parameter of a statement, it stands for all of its values.
     */
    public record Condition(String sql, Object... params) {
    }

    /** What a caller makes of a statement's failure: an answer, or the failure thrown on. */
    @FunctionalInterface
    public interface Recovery<T> {
        T recover(SQLException failure) throws SQLException;
    }

    /** Reads one row. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(Row row) throws SQLException;
    }

    private final SqlDialect dialect;
    private final DataSource dataSource;
    private final TransactionConnection transaction;
    private volatile LeaseFence fence = LeaseFence.NONE;

    private StoreJdbc(SqlDialect dialect, DataSource dataSource, TransactionConnection transaction) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.dataSource = dataSource;
        this.transaction = transaction;
    }

    /** Each call borrows an auto-commit connection from {@code dataSource} and returns it. */
    public static StoreJdbc autoCommit(SqlDialect dialect, DataSource dataSource) {
        return new StoreJdbc(dialect, Objects.requireNonNull(dataSource, "dataSource"), null);
    }

    /** Every call runs on the one connection of an open transaction. */
    public static StoreJdbc inTransaction(SqlDialect dialect, TransactionConnection transaction) {
        return new StoreJdbc(dialect, null, Objects.requireNonNull(transaction, "transaction"));
    }

    public SqlDialect dialect() {
        return dialect;
    }

    /**
     * From now on, each operation of this auto-commit helper that writes proves first, with {@code fence}, that this
     * instance holds the leader lease (D-108): its first write opens a transaction of its own (or joins the one
     * {@link #atomically} opened), proves the lease in it, and the operation commits as one. An operation that only
     * reads pays nothing. A helper of an open transaction has no fence of its own: the store proves the lease when it
     * opens the transaction.
     */
    public void fenceWith(LeaseFence fence) {
        if (transaction != null) {
            throw new IllegalStateException("an open transaction is fenced by the store that opened it");
        }
        this.fence = Objects.requireNonNull(fence, "fence");
    }

    /** The rule that sorts this database's failures. */
    public StoreFailures failures() {
        return dialect.failures();
    }

    /** Run {@code work} as one port operation, sorting its failures (see the class comment). */
    public <T> T run(String operation, Work<T> work) {
        if (transaction != null) {
            var connection = transaction.acquire();
            try {
                return work.run(new Session(connection, dialect, LeaseFence.NONE));
            } catch (SQLException e) {
                throw failure(operation, e);
            }
        }
        try (var connection = borrow(operation)) {
            var session = new Session(connection, dialect, fence);
            try {
                T result = work.run(session);
                session.commitFencedWrites();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                session.rollBackFencedWrites(e);
                throw e;
            }
        } catch (SQLException e) {
            throw failure(operation, e);
        }
    }

    /**
     * Run {@code work} as one unit: a transaction of its own in auto-commit, a savepoint inside the caller's
     * transaction. Rolled back when it throws or when {@code keep} refuses its result (which is still returned).
     */
    public <T> T atomically(String operation, Work<T> work, Predicate<T> keep) {
        return run(operation, session -> AtomicUnit.run(session.connection, transaction != null,
                dialect.keptSavepoint(), () -> work.run(session), keep));
    }

    /**
     * Run {@code statement} as one port operation whose failure {@code recovery} may answer (a unique violation that
     * means "present" or "taken"), the caller's transaction going on either way: where a failed statement aborts the
     * transaction (PostgreSQL), inside one the statement runs under a savepoint, rolled back to before the recovery.
     */
    public <T> T runOrRecover(String operation, Work<T> statement, Recovery<T> recovery) {
        if (transaction == null || !dialect.failedStatementAbortsTransaction()) {
            return run(operation, session -> {
                try {
                    return statement.run(session);
                } catch (SQLException e) {
                    return recovery.recover(e);
                }
            });
        }
        try {
            return atomically(operation, statement, result -> true);
        } catch (StoreDefectException e) {
            if (!(e.getCause() instanceof SQLException failure)) {
                throw e;
            }
            try {
                return recovery.recover(failure);
            } catch (SQLException unanswered) {
                throw e;
            }
        }
    }

    private Connection borrow(String operation) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            // No connection at all (refused, pool closed or exhausted): unavailable whatever the code says.
            throw dialect.failures().unavailable(operation, e);
        }
    }

    /**
     * {@link StoreUnavailableException} when {@code e} means unavailability,
     * {@link io.msgx.pipeline.store.StoreConflictException} when the work was rolled back to break a deadlock or a
     * serialization conflict, else {@link StoreDefectException}.
     */
    public RuntimeException failure(String operation, SQLException e) {
        return dialect.failure(operation, e);
    }

    /**
     * The cleanup DELETE as one port operation: at most {@code limit} rows of {@code table} matching
     * {@code condition}, the first in {@code order} ({@code WHERE key IN (}{@link #firstRows}{@code )}, the 11g way),
     * the condition checked again on the rows deleted so that a row changed meanwhile stays. {@code key} is the key
     * column or columns; {@code condition} and {@code order} name the table's columns unqualified; {@code params} are
     * the condition's. Returns how many rows were deleted; a {@code limit} below 1 is refused ({@link #requireLimit}).
     */
    public int deleteFirst(String operation, String table, String key, String condition, String order, int limit,
                    Object... params) {
        requireLimit(limit);
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
    public static String marks(int count) {
        var joiner = new StringJoiner(", ");
        for (int i = 0; i < count; i++) {
            joiner.add("?");
        }
        return joiner.toString();
    }

    /** Oracle's IN lists hold at most 1000 values: the chunks to query (on every database alike). */
    public static <T> List<List<T>> chunks(Collection<T> values) {
        var all = List.copyOf(values);
        var chunks = new ArrayList<List<T>>();
        for (int from = 0; from < all.size(); from += 1000) {
            chunks.add(all.subList(from, Math.min(all.size(), from + 1000)));
        }
        return chunks;
    }

    /** {@link SqlDialect#oneOf}: the conditions that {@code column} holds one of {@code keys}, one per statement. */
    public List<Condition> oneOf(String column, SqlDialect.KeyLookup lookup, Collection<?> keys) {
        return dialect.oneOf(column, lookup, List.copyOf(keys));
    }

    /** Refuses a batch limit below 1: a statement limited to no rows is a caller's mistake, not "nothing to do". */
    public static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a batch limit is at least 1, got " + limit);
        }
    }

    /** {@code query} limited to its first {@code ?} rows (bound last), in its order, as the dialect writes it. */
    public String firstRows(String query) {
        return dialect.firstRows(query);
    }

    /**
     * Operator text cut to fit a {@code VARCHAR(width)} column: at most {@code width} characters and at most the
     * dialect's byte limit in UTF-8 (4000 for any VARCHAR2 in Oracle 11g, whatever its CHAR width), never splitting a
     * surrogate pair. The text is for operators, not worth a failed write.
     */
    public String fitted(String text, int width) {
        return ColumnText.fitted(text, width, dialect.maxVarcharBytes());
    }

    // --- one connection's statements ---

    /**
     * The statements of one operation on one connection. Under a {@link LeaseFence} (an auto-commit helper of the
     * active instance, {@link #fenceWith}), the first write proves the lease in the transaction it writes in, opening
     * one of its own when the connection is in auto-commit.
     */
    public static final class Session {

        private final Connection connection;
        private final SqlDialect dialect;
        private final LeaseFence fence;
        private boolean proven;
        private boolean ownTransaction;

        private Session(Connection connection, SqlDialect dialect, LeaseFence fence) {
            this.connection = connection;
            this.dialect = dialect;
            this.fence = fence;
        }

        /**
         * The connection, for a write this class does not write (a database's own statement types): like every
         * write, the lease is proven first.
         */
        public Connection connection() throws SQLException {
            beforeWrite();
            return connection;
        }

        /** An INSERT, UPDATE, DELETE or MERGE; returns its row count. */
        public int update(String sql, Object... params) throws SQLException {
            beforeWrite();
            try (var statement = connection.prepareStatement(sql)) {
                StatementParameters.bindAll(dialect, statement, params);
                return statement.executeUpdate();
            }
        }

        public <T> List<T> list(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
            try (var statement = connection.prepareStatement(sql)) {
                StatementParameters.bindAll(dialect, statement, params);
                try (ResultSet rows = statement.executeQuery()) {
                    var row = new Row(rows, dialect);
                    var values = new ArrayList<T>();
                    while (rows.next()) {
                        values.add(mapper.map(row));
                    }
                    return values;
                }
            }
        }

        public <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
            var values = list(sql, mapper, params);
            if (values.size() > 1) {
                throw new IllegalStateException("expected at most one row, got " + values.size() + ": " + sql);
            }
            return values.stream().findFirst();
        }

        /** The next value of {@code sequence} (there is no RETURNING INTO on Oracle: the key is taken first). */
        public long nextValue(String sequence) throws SQLException {
            return one(dialect.nextValue(sequence), row -> row.longValue(1)).orElseThrow();
        }

        /** One statement sent once for many parameter rows (JDBC batch), a write. */
        public Batch batch(String sql) throws SQLException {
            beforeWrite();
            return new Batch(connection.prepareStatement(sql), dialect);
        }

        /**
         * Proves the lease before the first write of a fenced operation, in the transaction the write will be part
         * of: the caller's unit ({@link #atomically}), or one of its own opened here.
         */
        private void beforeWrite() throws SQLException {
            if (fence == LeaseFence.NONE || proven) {
                return;
            }
            if (connection.getAutoCommit()) {
                connection.setAutoCommit(false);
                ownTransaction = true;
            }
            fence.prove(this);
            proven = true;
        }

        private void commitFencedWrites() throws SQLException {
            if (ownTransaction) {
                connection.commit();
                AtomicUnit.restoreAutoCommit(connection);
            }
        }

        private void rollBackFencedWrites(Throwable cause) {
            if (ownTransaction) {
                AtomicUnit.rollback(connection, cause);
                AtomicUnit.restoreAutoCommit(connection);
            }
        }
    }

    /** A prepared statement collecting parameter rows; {@link #execute} sends them in one round trip. */
    public static final class Batch implements AutoCloseable {

        private final PreparedStatement statement;
        private final SqlDialect dialect;
        private int rows;

        private Batch(PreparedStatement statement, SqlDialect dialect) {
            this.statement = statement;
            this.dialect = dialect;
        }

        public void add(Object... params) throws SQLException {
            StatementParameters.bindAll(dialect, statement, params);
            statement.addBatch();
            rows++;
        }

        /** Send the rows; returns each row's update count (none when no row was added). */
        public int[] execute() throws SQLException {
            return rows > 0 ? statement.executeBatch() : new int[0];
        }

        /**
         * Send the rows; returns how many rows they changed in all. ojdbc 12c and later (here 19.x) report each
         * row's count for a batched statement; a driver answering {@link java.sql.Statement#SUCCESS_NO_INFO}
         * would make the sum meaningless, so that is refused as a defect rather than miscounted.
         */
        public int executeCounting() throws SQLException {
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

    /** The current row of a result, read by column label or position. */
    public static final class Row {

        private final ResultSet rows;
        private final SqlDialect dialect;

        private Row(ResultSet rows, SqlDialect dialect) {
            this.rows = rows;
            this.dialect = dialect;
        }

        public String text(String column) throws SQLException {
            return rows.getString(column);
        }

        /**
         * A text whose empty value the domain keeps as {@code ""}: Oracle stored it as NULL, so NULL reads back as
         * {@code ""}. Only for columns that are never NULL otherwise.
         */
        public String textOrEmpty(String column) throws SQLException {
            var text = rows.getString(column);
            return text == null ? "" : text;
        }

        public long longValue(String column) throws SQLException {
            return rows.getLong(column);
        }

        public long longValue(int column) throws SQLException {
            return rows.getLong(column);
        }

        public Long nullableLong(String column) throws SQLException {
            long value = rows.getLong(column);
            return rows.wasNull() ? null : value;
        }

        public int intValue(String column) throws SQLException {
            return rows.getInt(column);
        }

        public Integer nullableInt(String column) throws SQLException {
            int value = rows.getInt(column);
            return rows.wasNull() ? null : value;
        }

        public Instant instant(String column) throws SQLException {
            return dialect.instant(rows, column);
        }

        public LocalDate day(String column) throws SQLException {
            return dialect.day(rows, column);
        }
    }
}
