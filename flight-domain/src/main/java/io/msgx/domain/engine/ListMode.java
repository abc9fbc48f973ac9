package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a list {@code FLOP} lands on the flight's list (sis-format v3 §10, decision D-119). The seeds' rule is
 * {@link #REPLACE}: the body is the whole new list. An AODB that sends deltas instead is served by {@link #MERGE_BY_KEY}:
 * an item replaces the item with the same key in place, an item with a new key (or none) is appended, the rest stays.
 * Either way an empty element ({@code <DELY/>}) clears the list.
 */
public enum ListMode {
    REPLACE,
    MERGE_BY_KEY;

    /**
     * The key {@link #MERGE_BY_KEY} merges a list's items by, as the family's own consumer code does: {@code DELY} by
     * {@code CODE}, {@code ERUT} by {@code RTNO} (its sequence attribute), {@code SRVT} by {@code SRTC}, {@code VIPF} by
     * {@code VPCD}; empty for a list that has none (only {@link #REPLACE} serves it).
     */
    public static Optional<String> mergeKey(FlightList list) {
        return Optional.ofNullable(MERGE_KEYS.get(list));
    }

    private static final Map<FlightList, String> MERGE_KEYS = Map.of(
            FlightList.DELY, "CODE", FlightList.ERUT, "RTNO", FlightList.SRVT, "SRTC", FlightList.VIPF, "VPCD");

    /** The list after {@code incoming} lands on {@code current} in this mode. */
    List<ListItem> apply(FlightList list, List<ListItem> current, List<ListItem> incoming) {
        if (this == REPLACE || incoming.isEmpty()) {
            return incoming;
        }
        String key = mergeKey(list).orElseThrow(() -> new IllegalStateException(list + " has no merge key"));
        var merged = new ArrayList<>(current);
        for (var item : incoming) {
            String value = keyOf(list, key, item);
            int at = -1;
            for (int i = 0; value != null && i < merged.size(); i++) {
                if (value.equals(keyOf(list, key, merged.get(i)))) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                merged.add(item);
            } else {
                merged.set(at, item);
            }
        }
        return merged;
    }

    /** How an outcome names this mode for {@code list}: {@code merged by CODE}, {@code replaced}. */
    public String describe(FlightList list) {
        return this == REPLACE ? "replaced" : "merged by " + mergeKey(list).orElseThrow();
    }

    private static String keyOf(FlightList list, String key, ListItem item) {
        if (key.equals(list.sequenceAttribute())) {
            return item.sourceSeq() == null ? null : item.sourceSeq().toString();
        }
        return Objects.toString(item.get(key), null);
    }
}
