package io.msgx.adapter.pg;

import org.jooq.Condition;
import org.jooq.Field;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.val;

/**
 * A column matched against a set of keys bound as one array: {@code column IN (SELECT unnest(?))}. Used where the
 * column is not unique (the flight list tables, found by {@code FLID}, the first column of a composite key) or the
 * set is large (the dispatcher confirms up to 5,000 notifications by {@code EVENT_ID} at once).
 *
 * <p>Why not {@code column = ANY(?)}: PostgreSQL checks {@code = ANY} of a bound array by walking the array for
 * every row it considers, and it considers every row whenever it prefers a sequential scan — when its statistics
 * lag behind a table that grew quickly (a fresh schema taking a backlog, before autovacuum's next
 * {@code ANALYZE}), or when the keys are a large share of the table. That is rows × keys comparisons: 28 ms for 100
 * flights against 4,600 route points, and 5 s for confirming 5,000 notifications among 36,000 (measured, issue 9).
 * As a semi-join against {@code unnest} the worst plan is a hash join, linear in rows + keys (0.9 ms for the route
 * points), and the usual one an index look-up per key. The same holds for a group's keys (up to
 * {@code msgx.pipeline.group-size}, 300) on {@code PROC_STATE}, which intake grows faster than statistics follow:
 * with statistics taken at 1,000 of 51,000 rows, 300 identity keys cost 5.2 ms by {@code = ANY} (a scan) and
 * 0.5 ms by this form (an index look-up per key); in the 50k bench the look-up of a group's identities averaged
 * 7.5 ms before. For a small set of keys on a <em>unique</em> column keep
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

    /**
     * A text column as {@code column || ''}, for re-checking rows already found by their keys (a status still
     * {@code PENDING}, a mark still owed): no index matches the expression, nor can the planner prove a partial
     * index's predicate from it. With statistics that say hardly any row has the status (taken before a backlog grew,
     * D-42), a plain comparison let the planner walk every such row through a status index and compare each with
     * every key; re-checked this way, the rows can only be found by their keys.
     */
    static Field<String> recheck(Field<String> column) {
        return field("{0} || ''", String.class, column);
    }
}
