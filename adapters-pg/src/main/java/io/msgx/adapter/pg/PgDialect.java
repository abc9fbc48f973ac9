package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;
import io.msgx.adapter.jdbc.SqlDialect;
import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.adapter.jdbc.StoreFailures;
import io.msgx.adapter.jdbc.StoreJdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * PostgreSQL's ways. An {@link Instant} is bound as an {@link OffsetDateTime} in UTC, so a {@code TIMESTAMPTZ} column
 * holds the instant itself whatever the session's zone, and read back the same way. NULL is bound untyped, so the
 * server takes the column's type; a long text is an ordinary string. Rows are limited by {@code LIMIT}, and a kept
 * savepoint is released at once. A set of keys is bound as one array and many rows are written as one statement of
 * arrays ({@link UnnestRows}), so a statement's text and plan do not depend on how many there are. A generated key
 * is an identity column's, returned by {@code INSERT ... RETURNING}; an upsert is {@code INSERT ... ON CONFLICT DO
 * UPDATE}; text sorts in code-point order by {@code COLLATE "C"}, and a transaction locks a name by
 * {@code pg_advisory_xact_lock}.
 */
enum PgDialect implements SqlDialect {

    POSTGRESQL;

    @Override
    public String database() {
        return "PostgreSQL";
    }

    @Override
    public StoreFailures failures() {
        return StoreOperation.FAILURES;
    }

    @Override
    public KeptSavepoint keptSavepoint() {
        return KeptSavepoint.RELEASED;
    }

    @Override
    public String firstRows(String query) {
        return query + " LIMIT ?";
    }

    @Override
    public String nextValue(String sequence) {
        return "SELECT nextval('" + sequence + "')";
    }

    @Override
    public String sequenceNext(String sequence) {
        return "nextval('" + sequence + "')";
    }

    @Override
    public String timestampType() {
        return "timestamptz";
    }

    /** {@code DEFAULT}: PostgreSQL's generated keys are identity columns, whose own sequence gives the value. */
    @Override
    public String generatedKey(String sequence) {
        return "DEFAULT";
    }

    @Override
    public RowStatement insertUnlessPresent(String table, int keyColumns, String... columns) {
        return new RowStatement(insert(table, columns) + " ON CONFLICT (" + key(keyColumns, columns) + ") DO NOTHING",
                List.of(columns), List.of(columns));
    }

    @Override
    public RowStatement upsert(String table, int keyColumns, String... columns) {
        return new RowStatement(insert(table, columns) + " ON CONFLICT (" + key(keyColumns, columns)
                + ") DO UPDATE SET " + Arrays.stream(columns, keyColumns, columns.length)
                .map(column -> column + " = EXCLUDED." + column).collect(Collectors.joining(", ")),
                List.of(columns), List.of(columns));
    }

    private static String insert(String table, String... columns) {
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES (" + StoreJdbc.marks(columns.length)
                + ")";
    }

    private static String key(int keyColumns, String... columns) {
        return String.join(", ", Arrays.asList(columns).subList(0, keyColumns));
    }

    /** {@code (column || '')}: see {@link KeySet#recheck}. */
    @Override
    public String recheck(String column) {
        return "(" + column + " || '')";
    }

    @Override
    public boolean storesEmptyTextAsNull() {
        return false;
    }

    @Override
    public boolean failedStatementAbortsTransaction() {
        return true;
    }

    /** Quoted in lower case: the scripts create these columns unquoted, which PostgreSQL folds, or as "desc". */
    @Override
    public String column(String code) {
        return '"' + code.toLowerCase(Locale.ROOT) + '"';
    }

    /**
     * All keys as one array, so that the statement's text does not depend on their number: {@code column = ANY(?)}
     * {@link KeyLookup#BY_INDEX}, {@code column IN (SELECT unnest(?))} {@link KeyLookup#BY_JOIN}, whose worst plan when
     * statistics lag is a hash join rather than every row compared with every key ({@link KeySet} tells why each).
     */
    @Override
    public List<StoreJdbc.Condition> oneOf(String column, KeyLookup lookup, List<?> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        var condition = lookup == KeyLookup.BY_INDEX ? column + " = ANY(?)" : column + " IN (SELECT unnest(?))";
        Object array;
        if (keys.stream().allMatch(Long.class::isInstance)) {
            array = keys.toArray(Long[]::new);
        } else if (keys.stream().allMatch(String.class::isInstance)) {
            array = keys.toArray(String[]::new);
        } else {
            throw new IllegalArgumentException("keys are all Long or all String, got " + keys);
        }
        // One parameter, the whole array (not the array's elements as the condition's parameters).
        return List.of(new StoreJdbc.Condition(condition, new Object[] {array}));
    }

    /** One statement whatever the number of rows ({@link UnnestRows}). */
    @Override
    public void insertAll(StoreJdbc.Session session, String table, List<StoreJdbc.Column> columns, List<Object[]> rows)
            throws SQLException {
        UnnestRows.execute(session.connection(), UnnestRows.insert(table, columns), List.of(), columns.size(), rows);
    }

    /** {@link #insertAll}'s statement with {@code ON CONFLICT (key) DO UPDATE}. */
    @Override
    public void upsertAll(StoreJdbc.Session session, String table, List<StoreJdbc.Column> columns, Set<String> kept,
                          List<Object[]> rows) throws SQLException {
        var key = columns.get(0).name();
        var updates = columns.stream().skip(1).map(StoreJdbc.Column::name).filter(name -> !kept.contains(name))
                .map(name -> name + " = excluded." + name).collect(Collectors.joining(", "));
        UnnestRows.execute(session.connection(), UnnestRows.insert(table, columns) + " ON CONFLICT (" + key
                + ") DO UPDATE SET " + updates, List.of(), columns.size(), rows);
    }

    /** {@code INSERT ... RETURNING}: the identity column fills the key ({@code sequence} is not needed). */
    @Override
    public <T> T insertReturning(StoreJdbc.Session session, String table, String key, String sequence, String columns,
                                 String returned, StoreJdbc.RowMapper<T> mapper, Object... values) throws SQLException {
        return session.one("INSERT INTO " + table + " (" + columns + ") VALUES (" + StoreJdbc.marks(values.length)
                + ") RETURNING " + returned, mapper, values).orElseThrow();
    }

    /**
     * {@code INSERT ... (row) VALUES (...) ON CONFLICT (key) DO UPDATE SET columns WHERE table.writer IS NULL OR
     * table.writer <= ?}: the row's values, then the columns' again, then the writer's.
     */
    @Override
    public RowStatement upsertUnlessLater(String table, List<String> key, List<String> columns, String writer) {
        var row = Stream.of(key, columns).flatMap(List::stream).toList();
        var present = table + "." + writer;
        return new RowStatement("INSERT INTO " + table + " (" + String.join(", ", row) + ") VALUES ("
                + StoreJdbc.marks(row.size()) + ") ON CONFLICT (" + String.join(", ", key) + ") DO UPDATE SET "
                + String.join(" = ?, ", columns) + " = ? WHERE " + present + " IS NULL OR " + present + " <= ?",
                row, Stream.of(row, columns, List.of(writer)).flatMap(List::stream).toList());
    }

    @Override
    public String inCodePointOrder(String column) {
        return column + " COLLATE \"C\"";
    }

    @Override
    public Optional<String> transactionLock() {
        return Optional.of("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext(?))) AS locked");
    }

    @Override
    public String currentTime() {
        return "SELECT CURRENT_TIMESTAMP AS NOW";
    }

    @Override
    public String sharedRowLock() {
        return " FOR SHARE";
    }

    /** The bound is the transaction's {@code lock_timeout} ({@link #lockTimeout}). */
    @Override
    public String forUpdateWithin(java.time.Duration wait) {
        return " FOR UPDATE";
    }

    @Override
    public Optional<String> lockTimeout(java.time.Duration wait) {
        return Optional.of("SET LOCAL lock_timeout = " + Math.max(1, wait.toMillis()));
    }

    /** {@code 55P03} lock_not_available. */
    @Override
    public boolean isLockWaitOver(java.sql.SQLException e) {
        return "55P03".equals(e.getSQLState());
    }

    @Override
    public int maxVarcharBytes() {
        return Integer.MAX_VALUE;
    }

    @Override
    public void bindInstant(PreparedStatement statement, int index, Instant value) throws SQLException {
        statement.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    @Override
    public Instant instant(ResultSet rows, String column) throws SQLException {
        var time = rows.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }

    @Override
    public LocalDate day(ResultSet rows, String column) throws SQLException {
        return rows.getObject(column, LocalDate.class);
    }

    @Override
    public void bindNull(PreparedStatement statement, int index) throws SQLException {
        statement.setNull(index, Types.NULL);
    }

    @Override
    public void bindLongText(PreparedStatement statement, int index, String text) throws SQLException {
        if (text == null) {
            bindNull(statement, index);
        } else {
            statement.setString(index, text);
        }
    }
}
