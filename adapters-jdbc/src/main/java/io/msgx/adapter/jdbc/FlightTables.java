package io.msgx.adapter.jdbc;

import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The detail table that stores one or more {@link FlightList}s: {@code FLIGHT_<code>} for a resource or record list,
 * {@code FLIGHT_ROUTE_POINT} for {@code ROUT} and {@code ERUT} (told apart by {@code ROUTE_KIND}). Columns are named
 * by the item fields' protocol codes, written as the dialect writes such a name ({@link SqlDialect#column}: one of
 * them, {@code DESC}, is a reserved word); {@code OracleSchemaTest} and {@code PgMigrationTest} check that the scripts
 * have every one.
 *
 * @param routeKind true when the table holds more than one list (a {@code ROUTE_KIND} column tells them apart)
 * @param lists     the lists stored here, in {@link FlightList} order
 * @param itemCodes the item fields of those lists, in {@link FlightList#itemFields()} order
 */
public record FlightTables(String table, boolean routeKind, List<FlightList> lists, List<String> itemCodes) {

    /** Every detail table, each once. */
    public static final List<FlightTables> ALL = List.copyOf(Stream.concat(
                    Arrays.stream(FlightList.values())
                            .filter(list -> list.group() != FlightList.Group.ROUTE)
                            .map(list -> new FlightTables("FLIGHT_" + list.code(), false, List.of(list),
                                    list.itemFields())),
                    Stream.of(new FlightTables("FLIGHT_ROUTE_POINT", true, Arrays.stream(FlightList.values())
                            .filter(list -> list.group() == FlightList.Group.ROUTE).toList(),
                            FlightList.ROUT.itemFields())))
            .toList());

    public FlightTables {
        lists = List.copyOf(lists);
        itemCodes = List.copyOf(itemCodes);
        for (var list : lists) {
            if (!list.itemFields().equals(itemCodes)) {
                throw new IllegalStateException(lists + " share table " + table + " but not their item fields");
            }
        }
    }

    /** The columns of an item row as {@code dialect} writes them, in the order {@link #rowOf} gives their values. */
    public List<StoreJdbc.Column> columns(SqlDialect dialect) {
        var columns = new ArrayList<StoreJdbc.Column>();
        columns.add(new StoreJdbc.Column("FLID", String.class));
        if (routeKind) {
            columns.add(new StoreJdbc.Column("ROUTE_KIND", String.class));
        }
        columns.add(new StoreJdbc.Column("ORDINAL", Integer.class));
        columns.add(new StoreJdbc.Column("SOURCE_SEQ", Integer.class));
        itemCodes.forEach(code -> columns.add(new StoreJdbc.Column(dialect.column(code), String.class)));
        return columns;
    }

    /** The SELECT of the rows that meet {@code condition}, in FLID, list and ORDINAL order. */
    public String select(SqlDialect dialect, String condition) {
        return "SELECT FLID, " + (routeKind ? "ROUTE_KIND, " : "") + "SOURCE_SEQ, "
                + itemCodes.stream().map(dialect::column).collect(Collectors.joining(", "))
                + " FROM " + table + " WHERE " + condition + " ORDER BY FLID, " + (routeKind ? "ROUTE_KIND, " : "")
                + "ORDINAL";
    }

    /** The bind values of one item at {@code position} (from 1) of {@code list} of the flight {@code flid}. */
    public Object[] rowOf(String flid, FlightList list, int position, ListItem item) {
        var row = new ArrayList<Object>(4 + itemCodes.size());
        row.add(flid);
        if (routeKind) {
            row.add(list.code());
        }
        row.add(position);
        row.add(item.sourceSeq());
        for (var code : itemCodes) {
            row.add(item.get(code));
        }
        return row.toArray();
    }

    /** The list a stored row belongs to. */
    public FlightList listOf(StoreJdbc.Row row) throws SQLException {
        return routeKind ? FlightList.valueOf(row.text("ROUTE_KIND")) : lists.get(0);
    }

    /** The item a stored row holds. */
    public ListItem itemOf(StoreJdbc.Row row) throws SQLException {
        var values = new LinkedHashMap<String, String>();
        for (var code : itemCodes) {
            values.put(code, row.text(code));
        }
        return ListItem.of(row.nullableInt("SOURCE_SEQ"), values);
    }
}
