package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.SisTime;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlopSubtype;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Composes one {@code FLOP} for a flight: the body carries the flight's {@code FFID} (as the AODB does) and what the
 * subtype changes. An empty value is an explicit clear; an empty item list clears the list.
 */
final class FlopComposer {

    private final PlannedFlight flight;
    private final FlopSubtype subtype;
    private FlightPatch patch;

    FlopComposer(PlannedFlight flight, FlopSubtype subtype) {
        this.flight = flight;
        this.subtype = subtype;
        this.patch = FlightPatch.empty().with(FlightField.FFID, FieldChange.of(flight.ffid()));
    }

    FlopComposer set(FlightField field, String value) {
        patch = patch.with(field, FieldChange.of(value));
        return this;
    }

    FlopComposer time(FlightField field, LocalDateTime value) {
        return set(field, SisTime.format(value));
    }

    /** The whole list of a list subtype. */
    FlopComposer items(List<ListItem> items) {
        patch = patch.with(subtype.list().orElseThrow(() -> new IllegalStateException(subtype + " is no list subtype")),
                items);
        return this;
    }

    FlopComposer items(ListItem... items) {
        return items(List.of(items));
    }

    FlopSubtype subtype() {
        return subtype;
    }

    FlightOperation operation() {
        return new FlightOperation(subtype, flight.flid(), patch);
    }

    /** One list item: its sequence attribute and its fields as code/value pairs ({@link LocalDateTime}s formatted). */
    static ListItem item(int sequence, Object... codesAndValues) {
        var values = new LinkedHashMap<String, String>();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            Object value = codesAndValues[i + 1];
            values.put((String) codesAndValues[i],
                    value instanceof LocalDateTime time ? SisTime.format(time) : String.valueOf(value));
        }
        return ListItem.of(sequence, values);
    }
}
