package io.msgx.domain.message;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one flight record or operation carries: the scalar fields present in the message (set or cleared)
 * and the lists present in it (each a whole replacement; an empty list is an explicit clear). Anything not
 * in the patch was absent from the message.
 */
public record FlightPatch(Map<FlightField, FieldChange> fields, Map<FlightList, List<ListItem>> lists) {

    private static final FlightPatch EMPTY = new FlightPatch(Map.of(), Map.of());

    public FlightPatch {
        var fieldCopy = new EnumMap<FlightField, FieldChange>(FlightField.class);
        fieldCopy.putAll(fields);
        fields = Collections.unmodifiableMap(fieldCopy);
        var listCopy = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        lists.forEach((list, items) -> listCopy.put(list, List.copyOf(items)));
        lists = Collections.unmodifiableMap(listCopy);
    }

    public static FlightPatch empty() {
        return EMPTY;
    }

    public boolean carries(FlightField field) {
        return fields.containsKey(field);
    }

    public boolean carries(FlightList list) {
        return lists.containsKey(list);
    }

    /** The patch with one more field; for building patches in code and tests. */
    public FlightPatch with(FlightField field, FieldChange change) {
        var copy = new EnumMap<FlightField, FieldChange>(FlightField.class);
        copy.putAll(fields);
        copy.put(field, change);
        return new FlightPatch(copy, lists);
    }

    /** The patch with one more list; for building patches in code and tests. */
    public FlightPatch with(FlightList list, List<ListItem> items) {
        var copy = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        copy.putAll(lists);
        copy.put(list, items);
        return new FlightPatch(fields, copy);
    }
}
