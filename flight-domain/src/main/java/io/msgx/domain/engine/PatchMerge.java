package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightPatch;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The three ways a patch lands on a flight. Each handler picks one; none of them invents a fourth.
 */
enum PatchMerge {

    /**
     * Full-record merge (schedule DNLD/RESP, FLOP): a carried value sets, an explicit empty clears, an absent
     * field or list is kept.
     */
    MERGE {
        @Override
        FlightState apply(FlightState flight, FlightPatch patch) {
            return apply(flight, patch.fields(), patch.lists());
        }
    },

    /**
     * The SIS reading of a full schedule (seeds' Q13, switchable): as {@link #MERGE}, and additionally every
     * schedule-record field and every list the record does not carry is cleared.
     */
    MERGE_CLEARING_ABSENT {
        @Override
        FlightState apply(FlightState flight, FlightPatch patch) {
            var fields = new EnumMap<FlightField, FieldChange>(FlightField.class);
            for (var field : FlightField.values()) {
                if (field.inScheduleRecord()) {
                    fields.put(field, FieldChange.Cleared.INSTANCE);
                }
            }
            fields.putAll(patch.fields());
            var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
            for (var list : FlightList.values()) {
                lists.put(list, List.of());
            }
            lists.putAll(patch.lists());
            return apply(flight, fields, lists);
        }
    },

    /**
     * Set-only (ADFT): a carried value sets; an explicit empty element and an empty list change nothing, and
     * an absent one is kept. Set-only never clears.
     */
    SET_ONLY {
        @Override
        FlightState apply(FlightState flight, FlightPatch patch) {
            var fields = new EnumMap<FlightField, FieldChange>(FlightField.class);
            patch.fields().forEach((field, change) -> {
                if (change instanceof FieldChange.SetTo) {
                    fields.put(field, change);
                }
            });
            var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
            patch.lists().forEach((list, items) -> {
                if (!items.isEmpty()) {
                    lists.put(list, items);
                }
            });
            return apply(flight, fields, lists);
        }
    };

    abstract FlightState apply(FlightState flight, FlightPatch patch);

    static FlightState apply(FlightState flight, Map<FlightField, FieldChange> fieldChanges,
                             Map<FlightList, List<ListItem>> listChanges) {
        var values = new EnumMap<FlightField, String>(FlightField.class);
        fieldChanges.forEach((field, change) -> values.put(field, change instanceof FieldChange.SetTo set ? set.value() : null));
        return flight.withFields(flight.fields().withAll(values)).withLists(flight.lists().withAll(listChanges));
    }
}
