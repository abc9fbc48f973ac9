package io.msgx.adapter.jdbc;

import io.msgx.domain.flight.FlightField;
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
 * by the item fields' protocol codes, quoted (one of them, {@code DESC}, is a reserved word); {@code OracleSchemaTest}
 * checks that the scripts have every one.
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

    /** The scalar columns of {@code FLIGHT_SCHD}, one per {@link FlightField}, quoted, in enum order. */
    public static final List<String> FIELD_COLUMNS = Arrays.stream(FlightField.values())
            .map(field -> quoted(field.code())).toList();

    public FlightTables {
        lists = List.copyOf(lists);
        itemCodes = List.copyOf(itemCodes);
        for (var list : lists) {
            if (!list.itemFields().equals(itemCodes)) {
                throw new IllegalStateException(lists + " share table " + table + " but not their item fields");
            }
        }
    }

    /** The INSERT of one item row; {@link #rowOf} gives its values in order. */
    public String insert() {
        var columns = new ArrayList<String>();
        columns.add("FLID");
        if (routeKind) {
            columns.add("ROUTE_KIND");
        }
        columns.add("ORDINAL");
        columns.add("SOURCE_SEQ");
        itemCodes.forEach(code -> columns.add(quoted(code)));
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                + Sql.marks(columns.size()) + ")";
    }

    /** The SELECT of the rows of {@code count} flights, in FLID, list and ORDINAL order. */
    public String select(int count) {
        return "SELECT FLID, " + (routeKind ? "ROUTE_KIND, " : "") + "SOURCE_SEQ, "
                + itemCodes.stream().map(FlightTables::quoted).collect(Collectors.joining(", "))
                + " FROM " + table + " WHERE FLID IN (" + Sql.marks(count) + ") ORDER BY FLID, "
                + (routeKind ? "ROUTE_KIND, " : "") + "ORDINAL";
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
    public FlightList listOf(Sql.Row row) throws SQLException {
        return routeKind ? FlightList.valueOf(row.text("ROUTE_KIND")) : lists.get(0);
    }

    /** The item a stored row holds. */
    public ListItem itemOf(Sql.Row row) throws SQLException {
        var values = new LinkedHashMap<String, String>();
        for (var code : itemCodes) {
            values.put(code, row.text(code));
        }
        return ListItem.of(row.nullableInt("SOURCE_SEQ"), values);
    }

    /** A column named by a protocol code, quoted in upper case (the name Oracle stores for it unquoted). */
    public static String quoted(String code) {
        return '"' + code + '"';
    }
}
