package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.adapter.jdbc.SqlDialect;
import io.msgx.adapter.jdbc.StoreFailures;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * PostgreSQL's ways. An {@link Instant} is bound as an {@link OffsetDateTime} in UTC, so a {@code TIMESTAMPTZ} column
 * holds the instant itself whatever the session's zone, and read back the same way. NULL is bound untyped, so the
 * server takes the column's type; a long text is an ordinary string. Rows are limited by {@code LIMIT}, and a kept
 * savepoint is released at once. A generated key is an identity column's, returned by {@code INSERT ... RETURNING};
 * an upsert is {@code INSERT ... ON CONFLICT DO UPDATE}; text sorts in code-point order by {@code COLLATE "C"}, and a
 * transaction locks a name by {@code pg_advisory_xact_lock}.
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
    public String generatedKey(String sequence) {
        return "DEFAULT";
    }

    @Override
    public String insertUnlessPresent(String table, String key, String... columns) {
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES (" + Sql.marks(columns.length)
                + ") ON CONFLICT (" + key + ") DO NOTHING";
    }

    /** {@code INSERT ... RETURNING}: the identity column fills the key ({@code sequence} is not needed). */
    @Override
    public <T> T insertReturning(Sql.Session session, String table, String key, String sequence, String columns,
                                 String returned, Sql.RowMapper<T> mapper, Object... values) throws SQLException {
        return session.one("INSERT INTO " + table + " (" + columns + ") VALUES (" + Sql.marks(values.length)
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
                + Sql.marks(row.size()) + ") ON CONFLICT (" + String.join(", ", key) + ") DO UPDATE SET "
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
