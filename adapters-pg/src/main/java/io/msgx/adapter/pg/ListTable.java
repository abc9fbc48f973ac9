package io.msgx.adapter.pg;

import io.msgx.adapter.pg.jooq.DefaultSchema;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The detail table that stores one or more {@link FlightList}s: {@code FLIGHT_<code>} for a resource or record
 * list, {@code FLIGHT_ROUTE_POINT} for {@code ROUT} and {@code ERUT} (told apart by {@code ROUTE_KIND}). Columns
 * are found in the generated schema by the item fields' codes, so the enum and the migration cannot drift apart
 * silently: a missing column fails the first use of the store.
 *
 * @param routeKind null unless the table holds more than one list
 * @param lists     the lists stored here, in {@link FlightList} order
 * @param itemCodes the item fields of those lists, in {@link FlightList#itemFields()} order
 */
record ListTable(
        Table<?> table,
        Field<String> flid,
        Field<String> routeKind,
        Field<Integer> ordinal,
        Field<Integer> sourceSeq,
        List<FlightList> lists,
        List<String> itemCodes,
        List<Field<String>> itemColumns) {

    /** Every detail table, each once. */
    static final List<ListTable> ALL = List.copyOf(Stream.concat(
                    Arrays.stream(FlightList.values())
                            .filter(list -> list.group() != FlightList.Group.ROUTE)
                            .map(list -> resolve("flight_" + list.code(), List.of(list))),
                    Stream.of(resolve("flight_route_point", Arrays.stream(FlightList.values())
                            .filter(list -> list.group() == FlightList.Group.ROUTE)
                            .toList())))
            .toList());

    ListTable {
        lists = List.copyOf(lists);
        itemCodes = List.copyOf(itemCodes);
        itemColumns = List.copyOf(itemColumns);
    }

    /**
     * The columns of a row, in the order {@link #rowOf} gives values to an insert and {@link #flidOf}, {@link #listOf}
     * and {@link #itemOf} read a selected row back by position: the FLID, the route kind (when the table has one), the
     * ordinal, the source sequence, then the item fields. By position, because a look-up by field compares names
     * column by column: for every value of every row it was a quarter of the pump's CPU time (JFR, issue 9).
     */
    List<Field<?>> columns() {
        var columns = new ArrayList<Field<?>>();
        columns.add(flid);
        if (routeKind != null) {
            columns.add(routeKind);
        }
        columns.add(ordinal);
        columns.add(sourceSeq);
        columns.addAll(itemColumns);
        return columns;
    }

    /** The FLID of a row selected with {@link #columns()}. */
    String flidOf(Record row) {
        return (String) row.get(0);
    }

    /** The list a row selected with {@link #columns()} belongs to. */
    FlightList listOf(Record row) {
        return routeKind == null ? lists.get(0) : FlightList.valueOf((String) row.get(1));
    }

    /** The item a row selected with {@link #columns()} holds. */
    ListItem itemOf(Record row) {
        int sourceSeqAt = routeKind == null ? 2 : 3;
        var values = new LinkedHashMap<String, String>();
        for (int i = 0; i < itemCodes.size(); i++) {
            values.put(itemCodes.get(i), (String) row.get(sourceSeqAt + 1 + i));
        }
        return ListItem.of((Integer) row.get(sourceSeqAt), values);
    }

    /** The bind values of one item at {@code position} (from 1) of {@code list} of the flight {@code flid}. */
    Object[] rowOf(String flid, FlightList list, int position, ListItem item) {
        var row = new ArrayList<Object>(4 + itemCodes.size());
        row.add(flid);
        if (routeKind != null) {
            row.add(list.code());
        }
        row.add(position);
        row.add(item.sourceSeq());
        for (var code : itemCodes) {
            row.add(item.get(code));
        }
        return row.toArray();
    }

    private static ListTable resolve(String tableName, List<FlightList> lists) {
        var table = DefaultSchema.DEFAULT_SCHEMA.getTable(tableName.toLowerCase(Locale.ROOT));
        if (table == null) {
            throw schemaMismatch("table " + tableName + " for " + lists);
        }
        var itemCodes = lists.get(0).itemFields();
        for (var list : lists) {
            if (!list.itemFields().equals(itemCodes)) {
                throw new IllegalStateException(lists + " share table " + tableName + " but not their item fields");
            }
        }
        var itemColumns = itemCodes.stream().map(code -> column(table, code)).toList();
        return new ListTable(table, column(table, "FLID"), lists.size() > 1 ? column(table, "ROUTE_KIND") : null,
                column(table, "ORDINAL", Integer.class), column(table, "SOURCE_SEQ", Integer.class),
                lists, itemCodes, itemColumns);
    }

    /** The generated text column named by a protocol code (PostgreSQL keeps it in lower case). */
    static Field<String> column(Table<?> table, String code) {
        return column(table, code, String.class);
    }

    private static <T> Field<T> column(Table<?> table, String code, Class<T> type) {
        var field = table.field(code.toLowerCase(Locale.ROOT), type);
        if (field == null) {
            throw schemaMismatch("column " + table.getName() + "." + code);
        }
        return field;
    }

    private static IllegalStateException schemaMismatch(String what) {
        return new IllegalStateException("the generated schema has no " + what + ": the domain model and "
                + "db/migration/pg disagree; add a migration for it and rebuild adapters-pg");
    }
}
