package io.msgx.adapter.pg;

import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.Select;

import java.util.ArrayList;
import java.util.Arrays;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.val;

/**
 * A column matched against a set of keys bound as one array: {@code column IN (SELECT unnest(?))}. Used where the
 * column is not unique (the flight list tables, found by {@code FLID}, the first column of a composite key) or the
 * set is large (the dispatcher confirms up to 5,000 notifications by {@code EVENT_ID} at once, when they lie too far
 * apart for {@link #spanning}).
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
        return column.in(unnested(column, keys));
    }

    /** {@code SELECT unnest(keys)}, typed as {@code column}; {@code keys} is bound as one array parameter. */
    private static <T> Select<Record1<T>> unnested(Field<T> column, T[] keys) {
        return select(field("unnest({0})", column.getDataType(), val(keys)));
    }

    /**
     * Numeric keys of a unique column, mostly consecutive (a dispatch round's notifications: every pending one in
     * {@code EVENT_ID} order, with the projections' IDs and the held-back FLIDs' between them), as one range less its
     * holes: {@code column BETWEEN lowest AND highest AND column NOT IN (SELECT unnest(holes))}. The rows are then
     * found by one scan of the index's range instead of a look-up per key (D-50). Keys with more holes than keys fall
     * back to {@link #contains}, so the holes, hashed once, stay as few as the keys.
     *
     * <p>Why not {@code column <> ALL(?)}: the array arrives as text cast to {@code bigint[]}, a cast the planner
     * does not fold into a constant (array input is only stable), so it cannot hash the array and compares every
     * row with every hole: 1.1 s for 2,500 rows against 5,000 holes in {@code psql}, and 6,251 events/s in the 1M
     * bench. As {@code NOT IN} a sub-query it is a hashed sub-plan in a custom and in a generic plan alike (15 ms).
     */
    static Condition spanning(Field<Long> column, Long[] keys) {
        long[] sorted = Arrays.stream(keys).mapToLong(Long::longValue).sorted().distinct().toArray();
        long lowest = sorted[0];
        long highest = sorted[sorted.length - 1];
        if (highest - lowest + 1 - sorted.length > sorted.length) {
            return contains(column, keys);
        }
        var holes = new ArrayList<Long>();
        for (int i = 1; i < sorted.length; i++) {
            for (long hole = sorted[i - 1] + 1; hole < sorted[i]; hole++) {
                holes.add(hole);
            }
        }
        var range = column.between(lowest, highest);
        return holes.isEmpty() ? range : range.and(column.notIn(unnested(column, holes.toArray(Long[]::new))));
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
