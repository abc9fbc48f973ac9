package io.msgx.domain.flight;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The ordered lists a flight carries, by {@link FlightList}. Immutable; a missing list is an empty one. */
public final class FlightLists {

    private static final FlightLists EMPTY = new FlightLists(new EnumMap<>(FlightList.class));

    private final Map<FlightList, List<ListItem>> lists;

    private FlightLists(EnumMap<FlightList, List<ListItem>> lists) {
        this.lists = Collections.unmodifiableMap(lists);
    }

    public static FlightLists empty() {
        return EMPTY;
    }

    public static FlightLists of(Map<FlightList, List<ListItem>> lists) {
        var copy = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        lists.forEach((list, items) -> {
            if (!items.isEmpty()) {
                copy.put(list, List.copyOf(items));
            }
        });
        return new FlightLists(copy);
    }

    /** The items of a list in {@code ORDINAL} order; empty when the flight has none. */
    public List<ListItem> get(FlightList list) {
        return lists.getOrDefault(list, List.of());
    }

    /** These lists with one list replaced as a whole; an empty list clears it. */
    public FlightLists with(FlightList list, List<ListItem> items) {
        var copy = lists.isEmpty() ? new EnumMap<FlightList, List<ListItem>>(FlightList.class) : new EnumMap<>(lists);
        if (items.isEmpty()) {
            copy.remove(list);
        } else {
            copy.put(list, List.copyOf(items));
        }
        return new FlightLists(copy);
    }

    /** These lists with every given list replaced, in one copy; an empty list removes that list. */
    public FlightLists withAll(Map<FlightList, List<ListItem>> changes) {
        if (changes.isEmpty()) {
            return this;
        }
        var copy = lists.isEmpty() ? new EnumMap<FlightList, List<ListItem>>(FlightList.class) : new EnumMap<>(lists);
        changes.forEach((list, items) -> {
            if (items.isEmpty()) {
                copy.remove(list);
            } else {
                copy.put(list, List.copyOf(items));
            }
        });
        return new FlightLists(copy);
    }

    public Map<FlightList, List<ListItem>> asMap() {
        return lists;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlightLists other && lists.equals(other.lists);
    }

    @Override
    public int hashCode() {
        return lists.hashCode();
    }

    @Override
    public String toString() {
        return lists.toString();
    }
}
