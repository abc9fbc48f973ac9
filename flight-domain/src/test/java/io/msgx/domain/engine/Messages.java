package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;

import java.util.List;
import java.util.Map;

/** Small builders for messages in tests: read like the XML they stand for. */
final class Messages {

    private Messages() {
    }

    static FlightPatch patch(Object... codesAndValues) {
        var patch = FlightPatch.empty();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            var field = FlightField.valueOf((String) codesAndValues[i]);
            patch = patch.with(field, FieldChange.of((String) codesAndValues[i + 1]));
        }
        return patch;
    }

    static FlightRecord fltr(String flid, FlightPatch patch) {
        return new FlightRecord(flid, patch);
    }

    static FlightRecord fltr(String flid, String sodt, Object... codesAndValues) {
        return new FlightRecord(flid, patch(codesAndValues).with(FlightField.SODT, FieldChange.of(sodt)));
    }

    static ScheduleMessage dnld(FlightRecord... records) {
        return new ScheduleMessage(ScheduleKind.DNLD, records.length, List.of(records));
    }

    static ScheduleMessage adft(FlightRecord record) {
        return new ScheduleMessage(ScheduleKind.ADFT, 1, List.of(record));
    }

    static FlightOperation flop(FlopSubtype subtype, String flid, FlightPatch patch) {
        return new FlightOperation(subtype, flid, patch);
    }

    static FlightDeletion fdel(String flid) {
        return new FlightDeletion(flid);
    }

    static ListItem item(Integer seq, String... codesAndValues) {
        var values = new java.util.LinkedHashMap<String, String>();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            values.put(codesAndValues[i], codesAndValues[i + 1]);
        }
        return ListItem.of(seq, values);
    }

    static FlightPatch withList(FlightPatch patch, FlightList list, ListItem... items) {
        return patch.with(list, List.of(items));
    }

    static Map<FlightList, List<ListItem>> noLists() {
        return Map.of();
    }
}
