package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;
import io.msgx.adapter.jdbc.FailureCodes;
import io.msgx.adapter.jdbc.SqlDialect;
import io.msgx.adapter.jdbc.StoreFailures;
import io.msgx.adapter.jdbc.StoreJdbc;

import java.io.StringReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Oracle 11g's ways (and those of its stand-in in the tests, H2 in Oracle mode). An {@link Instant} is bound as a
 * {@link LocalDateTime} in UTC and read back the same way, so a {@code TIMESTAMP} column holds the UTC wall-clock time
 * whatever the session's or the JVM's time zone; a {@code DATE} is read as a timestamp at midnight. NULL is bound as a
 * VARCHAR null, which fits any scalar column; a long text as a character stream, so it reaches a {@code CLOB} whatever
 * its length. Rows are limited by {@code ROWNUM} (11g has no {@code FETCH FIRST}), and a savepoint ends with its
 * transaction (there is no {@code RELEASE SAVEPOINT}). Keys are matched by standard IN lists of at most 1000, and many
 * rows sent as JDBC batches of single-row statements. A generated key is taken from its sequence before the insert;
 * an upsert is a {@code MERGE}; text sorts in the session's order (binary under {@code NLS_SORT=BINARY}), and there is
 * no lock of a name (registrations rely on unique indexes).
 */
enum OracleDialect implements SqlDialect {

    ORACLE;

    /** The rule that sorts failures, over Oracle's codes (and the SQLStates of its stand-in H2). */
    static final StoreFailures FAILURES = new StoreFailures(FailureCodes.ORACLE);

    /** The most bytes any VARCHAR2 column holds in 11g. */
    private static final int MAX_VARCHAR2_BYTES = 4000;

    @Override
    public String database() {
        return "Oracle";
    }

    @Override
    public StoreFailures failures() {
        return FAILURES;
    }

    @Override
    public KeptSavepoint keptSavepoint() {
        return KeptSavepoint.LEFT_TO_THE_TRANSACTION;
    }

    @Override
    public String firstRows(String query) {
        return "SELECT * FROM (" + query + ") WHERE ROWNUM <= ?";
    }

    @Override
    public String nextValue(String sequence) {
        return "SELECT " + sequence + ".NEXTVAL FROM dual";
    }

    @Override
    public String sequenceNext(String sequence) {
        return sequence + ".NEXTVAL";
    }

    @Override
    public String timestampType() {
        return "TIMESTAMP(6)";
    }

    @Override
    public String generatedKey(String sequence) {
        return sequence + ".NEXTVAL";
    }

    /** {@code MERGE ... WHEN NOT MATCHED THEN INSERT}: the key bound for the match, then every column. */
    @Override
    public RowStatement insertUnlessPresent(String table, int keyColumns, String... columns) {
        var row = List.of(columns);
        return new RowStatement(merge(table, keyColumns, columns) + insert(columns), row,
                concat(row.subList(0, keyColumns), row));
    }

    /** {@code MERGE ... WHEN MATCHED THEN UPDATE ... WHEN NOT MATCHED THEN INSERT}: key, others, every column. */
    @Override
    public RowStatement upsert(String table, int keyColumns, String... columns) {
        var row = List.of(columns);
        var others = row.subList(keyColumns, columns.length);
        return new RowStatement(merge(table, keyColumns, columns) + " WHEN MATCHED THEN UPDATE SET "
                + others.stream().map(column -> column + " = ?").collect(Collectors.joining(", ")) + insert(columns),
                row, concat(row, row));
    }

    private static List<String> concat(List<String> first, List<String> then) {
        return Stream.concat(first.stream(), then.stream()).toList();
    }

    private static String merge(String table, int keyColumns, String... columns) {
        return "MERGE INTO " + table + " x USING dual ON (" + Arrays.stream(columns, 0, keyColumns)
                .map(column -> "x." + column + " = ?").collect(Collectors.joining(" AND ")) + ")";
    }

    private static String insert(String... columns) {
        return " WHEN NOT MATCHED THEN INSERT (" + String.join(", ", columns) + ") VALUES ("
                + StoreJdbc.marks(columns.length) + ")";
    }

    @Override
    public String recheck(String column) {
        return column;
    }

    @Override
    public boolean storesEmptyTextAsNull() {
        return true;
    }

    @Override
    public boolean failedStatementAbortsTransaction() {
        return false;
    }

    /** Quoted as it is: the scripts create these columns unquoted, which Oracle folds to upper case, or as "DESC". */
    @Override
    public String column(String code) {
        return '"' + code + '"';
    }

    /**
     * A JDBC batch of {@code MERGE ... USING dual}, one a row (11g has no multi-row upsert), each bound with its key,
     * then the values it updates, then every value it inserts.
     */
    @Override
    public void upsertAll(StoreJdbc.Session session, String table, List<StoreJdbc.Column> columns, Set<String> kept,
                          List<Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        var names = columns.stream().map(StoreJdbc.Column::name).toList();
        int[] updated = IntStream.range(1, names.size()).filter(i -> !kept.contains(names.get(i))).toArray();
        var updates = Arrays.stream(updated).mapToObj(i -> names.get(i) + " = ?").collect(Collectors.joining(", "));
        var merge = "MERGE INTO " + table + " t USING dual ON (t." + names.get(0) + " = ?)"
                + " WHEN MATCHED THEN UPDATE SET " + updates + " WHEN NOT MATCHED THEN INSERT ("
                + String.join(", ", names) + ") VALUES ("
                + StoreJdbc.marks(names.size()) + ")";
        try (var batch = session.batch(merge)) {
            for (var row : rows) {
                var values = new ArrayList<>();
                values.add(row[0]);
                for (int i : updated) {
                    values.add(row[i]);
                }
                values.addAll(Arrays.asList(row));
                batch.add(values.toArray());
            }
            batch.execute();
        }
    }

    /** The key taken from {@code sequence} first, the row inserted with it, then selected by it. */
    @Override
    public <T> T insertReturning(StoreJdbc.Session session, String table, String key, String sequence, String columns,
                                 String returned, StoreJdbc.RowMapper<T> mapper, Object... values) throws SQLException {
        long id = session.nextValue(sequence);
        var params = new Object[values.length + 1];
        params[0] = id;
        System.arraycopy(values, 0, params, 1, values.length);
        session.update("INSERT INTO " + table + " (" + key + ", " + columns + ") VALUES (" + StoreJdbc.marks(params.length)
                + ")", params);
        return session.one("SELECT " + returned + " FROM " + table + " WHERE " + key + " = ?", mapper, id)
                .orElseThrow();
    }

    /**
     * {@code MERGE INTO table m USING dual ON (key) WHEN MATCHED THEN UPDATE SET columns WHERE m.writer IS NULL OR
     * m.writer <= ? WHEN NOT MATCHED THEN INSERT (row) VALUES (...)}: the key's values and the columns' (the row's),
     * the writer's, then the row's again.
     */
    @Override
    public RowStatement upsertUnlessLater(String table, List<String> key, List<String> columns, String writer) {
        var row = Stream.of(key, columns).flatMap(List::stream).toList();
        return new RowStatement("MERGE INTO " + table + " m USING dual ON ("
                + key.stream().map(column -> "m." + column + " = ?").collect(Collectors.joining(" AND "))
                + ") WHEN MATCHED THEN UPDATE SET " + String.join(" = ?, ", columns) + " = ?"
                + " WHERE m." + writer + " IS NULL OR m." + writer + " <= ?"
                + " WHEN NOT MATCHED THEN INSERT (" + String.join(", ", row) + ") VALUES (" + StoreJdbc.marks(row.size())
                + ")",
                row, Stream.of(row, List.of(writer), row).flatMap(List::stream).toList());
    }

    /** The column itself: the session sorts, binary under {@code NLS_SORT=BINARY} (see {@link OraclePipelineStore}). */
    @Override
    public String inCodePointOrder(String column) {
        return column;
    }

    /** None: 11g has none without {@code DBMS_LOCK} grants. */
    @Override
    public Optional<String> transactionLock() {
        return Optional.empty();
    }

    /** In UTC, as the store keeps every time (a {@code TIMESTAMP} read as UTC). */
    @Override
    public String currentTime() {
        return "SELECT CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP) AS NOW FROM DUAL";
    }

    /** Oracle has no shared row lock: the lockers queue. */
    @Override
    public String sharedRowLock() {
        return " FOR UPDATE";
    }

    @Override
    public String forUpdateWithin(java.time.Duration wait) {
        return " FOR UPDATE WAIT " + Math.max(1, (wait.toMillis() + 999) / 1000);
    }

    @Override
    public Optional<String> lockTimeout(java.time.Duration wait) {
        return Optional.empty();
    }

    /** ORA-30006 (the WAIT ran out), ORA-00054 (busy, NOWAIT), H2's lock timeout 50200. */
    @Override
    public boolean isLockWaitOver(java.sql.SQLException e) {
        return e.getErrorCode() == 30006 || e.getErrorCode() == 54 || e.getErrorCode() == 50200;
    }

    @Override
    public int maxVarcharBytes() {
        return MAX_VARCHAR2_BYTES;
    }

    @Override
    public void bindInstant(PreparedStatement statement, int index, Instant value) throws SQLException {
        statement.setObject(index, LocalDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    @Override
    public Instant instant(ResultSet rows, String column) throws SQLException {
        var local = rows.getObject(column, LocalDateTime.class);
        return local == null ? null : local.toInstant(ZoneOffset.UTC);
    }

    @Override
    public LocalDate day(ResultSet rows, String column) throws SQLException {
        var local = rows.getObject(column, LocalDateTime.class);
        return local == null ? null : local.toLocalDate();
    }

    @Override
    public void bindNull(PreparedStatement statement, int index) throws SQLException {
        statement.setNull(index, Types.VARCHAR);
    }

    @Override
    public void bindLongText(PreparedStatement statement, int index, String text) throws SQLException {
        if (text == null) {
            statement.setNull(index, Types.CLOB);
        } else {
            statement.setCharacterStream(index, new StringReader(text), text.length());
        }
    }
}
