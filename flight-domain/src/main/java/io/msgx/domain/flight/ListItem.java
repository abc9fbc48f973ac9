package io.msgx.domain.flight;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One item of a {@link FlightList}: its upstream sequence ({@code SOURCE_SEQ}, may be null) and its field
 * values by protocol code. An empty or missing field has no entry. Position ({@code ORDINAL}) is the item's
 * index in its list plus one; it is not stored in the item so that a list is equal to another exactly when
 * the same items stand in the same order.
 */
public record ListItem(Integer sourceSeq, Map<String, String> values) {

    public ListItem {
        Objects.requireNonNull(values, "values");
        var copy = new LinkedHashMap<String, String>();
        values.forEach((code, value) -> {
            if (value != null && !value.isEmpty()) {
                copy.put(code, value);
            }
        });
        values = Collections.unmodifiableMap(copy);
    }

    public static ListItem of(Integer sourceSeq, Map<String, String> values) {
        return new ListItem(sourceSeq, values);
    }

    /** The value of an item field, or null when the item does not carry it. */
    public String get(String code) {
        return values.get(code);
    }
}
