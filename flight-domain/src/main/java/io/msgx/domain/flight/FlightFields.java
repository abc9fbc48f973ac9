package io.msgx.domain.flight;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/** The scalar fields a flight carries, by {@link FlightField}. Immutable; an empty value is no value. */
public final class FlightFields {

    private static final FlightFields EMPTY = new FlightFields(new EnumMap<>(FlightField.class));

    private final Map<FlightField, String> values;

    private FlightFields(EnumMap<FlightField, String> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    public static FlightFields empty() {
        return EMPTY;
    }

    public static FlightFields of(Map<FlightField, String> values) {
        var copy = new EnumMap<FlightField, String>(FlightField.class);
        values.forEach((field, value) -> {
            if (value != null && !value.isEmpty()) {
                copy.put(field, value);
            }
        });
        return new FlightFields(copy);
    }

    public Optional<String> get(FlightField field) {
        return Optional.ofNullable(values.get(field));
    }

    /** The value, or null when the flight does not carry the field. */
    public String valueOf(FlightField field) {
        return values.get(field);
    }

    /** These fields with one field set; a null or empty value removes it. */
    public FlightFields with(FlightField field, String value) {
        var copy = values.isEmpty() ? new EnumMap<FlightField, String>(FlightField.class) : new EnumMap<>(values);
        if (value == null || value.isEmpty()) {
            copy.remove(field);
        } else {
            copy.put(field, value);
        }
        return new FlightFields(copy);
    }

    /** These fields with every given field set, in one copy; a null or empty value removes that field. */
    public FlightFields withAll(Map<FlightField, String> changes) {
        if (changes.isEmpty()) {
            return this;
        }
        var copy = values.isEmpty() ? new EnumMap<FlightField, String>(FlightField.class) : new EnumMap<>(values);
        changes.forEach((field, value) -> {
            if (value == null || value.isEmpty()) {
                copy.remove(field);
            } else {
                copy.put(field, value);
            }
        });
        return new FlightFields(copy);
    }

    public Map<FlightField, String> asMap() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlightFields other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
