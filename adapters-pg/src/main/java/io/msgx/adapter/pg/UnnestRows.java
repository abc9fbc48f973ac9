package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.StoreJdbc;
import org.jooq.Field;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Many rows in one statement, planned once whatever their number: each column travels as one array parameter and
 * PostgreSQL turns the arrays back into rows with {@code unnest(...)}. A statement per row bound in a JDBC batch
 * costs the server a full execution per row (0.05–0.09 ms each, measured with {@code pg_stat_statements}; ending
 * and binding messages one by one took 37 % of the server's execution time), and a multi-row {@code VALUES} list is a
 * different statement text for every row count.
 *
 * <p>The arrays are sent as {@code text[]} and cast to each column's type in the statement, so one way of binding
 * fits every column: values are written as PostgreSQL reads them ({@link Instant} as ISO-8601 with its offset, dates
 * as ISO dates, numbers in decimal); {@code null} stays {@code NULL}.
 */
final class UnnestRows {

    /** The PostgreSQL type of the Java types our columns hold. */
    private static final Map<Class<?>, String> SQL_TYPES = Map.of(
            String.class, "text",
            Long.class, "bigint",
            Integer.class, "integer",
            LocalDate.class, "date",
            Instant.class, "timestamptz");

    private UnnestRows() {
    }

    /**
     * {@code unnest(...) as alias(c1, ..., cn)} over one array parameter per column of {@code columns}, each cast to
     * the column's type: the row source of an {@code INSERT ... SELECT} or an {@code UPDATE ... FROM}.
     */
    static String source(List<? extends Field<?>> columns, String alias) {
        return unnest(columns.stream().map(column -> new StoreJdbc.Column(quoted(column), column.getType())).toList(), alias);
    }

    /** {@code insert into table (columns) select * from} {@link #source}: the start of a multi-row insert. */
    static String insert(String table, List<StoreJdbc.Column> columns) {
        return "insert into " + table + " (" + names(columns) + ") select * from " + unnest(columns, "r");
    }

    /** {@link #source} of columns named as the statement writes them, each typed by its values' class. */
    static String unnest(List<StoreJdbc.Column> columns, String alias) {
        var arrays = columns.stream().map(column -> "cast(cast(? as text[]) as " + sqlType(column) + "[])")
                .collect(Collectors.joining(", "));
        return "unnest(" + arrays + ") as " + alias + "(" + names(columns) + ")";
    }

    /** A column's name as the statement writes it. */
    static String quoted(Field<?> column) {
        return "\"" + column.getName().replace("\"", "\"\"") + "\"";
    }

    private static String names(List<StoreJdbc.Column> columns) {
        return columns.stream().map(StoreJdbc.Column::name).collect(Collectors.joining(", "));
    }

    private static String sqlType(StoreJdbc.Column column) {
        var type = SQL_TYPES.get(column.type());
        if (type == null) {
            throw new IllegalArgumentException("no array type for column " + column.name() + " of " + column.type());
        }
        return type;
    }

    /**
     * Run {@code sql} on {@code connection} with, first, {@code leading} as single values (placeholders before the
     * arrays, e.g. a {@code SET} shared by every row) and then one {@code text[]} array per column of {@code rows};
     * returns the update count.
     */
    static int execute(Connection connection, String sql, List<?> leading, int columns, List<Object[]> rows)
            throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        try (var statement = connection.prepareStatement(sql)) {
            int parameter = 1;
            for (var value : leading) {
                statement.setObject(parameter++,
                        value instanceof Instant instant ? instant.atOffset(ZoneOffset.UTC) : value);
            }
            for (int column = 0; column < columns; column++) {
                int c = column;
                var values = IntStream.range(0, rows.size()).mapToObj(r -> text(rows.get(r)[c])).toArray();
                statement.setArray(parameter++, connection.createArrayOf("text", values));
            }
            return statement.executeUpdate();
        }
    }

    /** A value as PostgreSQL reads it in a {@code text[]}; a type it would not read back is refused, not guessed. */
    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof StoreJdbc.LongText text) {
            return text.text();
        }
        if (!SQL_TYPES.containsKey(value.getClass())) {
            throw new IllegalArgumentException("no array type for a value of " + value.getClass().getName());
        }
        return value.toString();
    }
}
