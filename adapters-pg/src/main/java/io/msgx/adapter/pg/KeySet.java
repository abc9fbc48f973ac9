package io.msgx.adapter.pg;

import org.jooq.Condition;
import org.jooq.Field;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.val;

/**
 * A non-unique column matched against a set of keys bound as one array: {@code column IN (SELECT unnest(?))}.
 * Used for the flight list tables, whose rows are found by {@code FLID}, the first column of a composite key.
 *
 * <p>Why not {@code column = ANY(?)}: when PostgreSQL's statistics lag behind a table that grew quickly (a fresh
 * schema taking a backlog, before autovacuum's next {@code ANALYZE}) it plans that as a sequential scan comparing
 * every row with every key — rows × keys comparisons: 28 ms for 100 flights against 4,600 route points, growing with
 * the table. As a semi-join against {@code unnest} the same statistics give a hash join, linear in rows + keys
 * (0.9 ms), and current statistics an index look-up per key (measured, issue 9). For a <em>unique</em> column keep
 * {@code = ANY(?)}: the planner bounds its result by the number of keys and looks each up in the index, while this
 * form, misjudging a never-analyzed table as one row, may scan the unique index and re-read the keys per row.
 */
final class KeySet {

    private KeySet() {
    }

    /** {@code column IN (SELECT unnest(keys))}; {@code keys} is bound as one array parameter. */
    static <T> Condition contains(Field<T> column, T[] keys) {
        return column.in(select(field("unnest({0})", column.getDataType(), val(keys))));
    }
}
