package io.msgx.adapter.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * How {@link StoreJdbc} binds a statement's parameters, the same on every database but where its
 * {@link SqlDialect} says otherwise: an {@link Instant} and a long text by the dialect, a {@link LocalDate} as
 * itself, a {@link StoreJdbc.Condition}'s parameters in its place, arrays as SQL arrays. A value of any other type is
 * a defect, refused with its type.
 */
final class StatementParameters {

    private StatementParameters() {
    }

    static void bindAll(SqlDialect dialect, PreparedStatement statement, Object... params)
            throws SQLException {
        int index = 1;
        for (var param : params) {
            if (param instanceof StoreJdbc.Condition condition) {
                for (var value : condition.params()) {
                    index += bind(dialect, statement, index, value);
                }
            } else {
                index += bind(dialect, statement, index, param);
            }
        }
    }

    private static int bind(SqlDialect dialect, PreparedStatement statement, int index, Object value)
            throws SQLException {
        if (value == null) {
            dialect.bindNull(statement, index);
        } else if (value instanceof Instant instant) {
            dialect.bindInstant(statement, index, instant);
        } else if (value instanceof LocalDate day) {
            statement.setObject(index, day);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof StoreJdbc.LongText text) {
            dialect.bindLongText(statement, index, text.text());
        } else if (value instanceof Boolean flag) {
            statement.setBoolean(index, flag);
        } else if (value instanceof String[] texts) {
            statement.setArray(index, statement.getConnection().createArrayOf("varchar", texts));
        } else if (value instanceof Long[] numbers) {
            statement.setArray(index, statement.getConnection().createArrayOf("bigint", numbers));
        } else {
            throw new IllegalArgumentException("no binding for " + value.getClass().getName() + ": " + value);
        }
        return 1;
    }
}
