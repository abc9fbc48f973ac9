package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.OperationDay;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Flight states for store tests: one that carries every field and every list (with the awkward cases a store must
 * keep: repeated resource codes, missing and repeated sequence numbers, ROUT and ERUT with equal sequences), and a
 * plain one with a flight number only.
 */
public final class FlightSamples {

    /** The operation day of the examples. */
    public static final OperationDay DAY = OperationDay.of(LocalDate.of(2024, 3, 11));

    private FlightSamples() {
    }

    /** A flight with a value in every {@link FlightField} and items in every {@link FlightList}. */
    public static FlightState everything(String flid, String masterFlid) {
        var fields = new EnumMap<FlightField, String>(FlightField.class);
        for (var field : FlightField.values()) {
            fields.put(field, switch (field.kind()) {
                case TIME -> "11MAR24" + String.format("%04d", 600 + field.ordinal());
                case NUMBER -> "180";
                case EXCEPTION -> "APCD=PEK;REASON=WX-" + field.code();
                case TEXT -> field.code() + "-" + flid;
            });
        }
        fields.put(FlightField.MAID, masterFlid);
        var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        for (var list : FlightList.values()) {
            lists.put(list, awkwardItems(list));
        }
        return new FlightState(FlightId.of(flid), FlightStatus.ACTIVE, 3, DAY, 1003,
                FlightFields.of(fields), FlightLists.of(lists));
    }

    /**
     * Items of {@code list}: two with the same first field (the same gate twice is two assignments) and the same
     * sequence, one without a sequence and with only its first field. ROUT and ERUT differ in their values but
     * share sequence numbers.
     */
    public static List<ListItem> awkwardItems(FlightList list) {
        var codes = list.itemFields();
        var items = new ArrayList<ListItem>();
        for (int n = 1; n <= 2; n++) {
            var values = new LinkedHashMap<String, String>();
            values.put(codes.get(0), list.code() + "-A");
            for (var code : codes.subList(1, codes.size())) {
                values.put(code, code + n);
            }
            items.add(ListItem.of(1, values));
        }
        var values = new LinkedHashMap<String, String>();
        values.put(codes.get(0), list.code() + "-B");
        items.add(ListItem.of(null, values));
        return items;
    }

    /** A flight with a flight number and nothing else, at version 1. */
    public static FlightState plain(String flid) {
        return new FlightState(FlightId.of(flid), FlightStatus.ACTIVE, 1, DAY, 1001,
                FlightFields.empty().with(FlightField.FLNO, "CA" + flid), FlightLists.empty());
    }

    /** A plain flight that is a code-share child of {@code masterFlid}. */
    public static FlightState child(String flid, String masterFlid) {
        var plain = plain(flid);
        return plain.withFields(plain.fields().with(FlightField.MAID, masterFlid));
    }

    /** A list item with values given as code, value, code, value ... */
    public static ListItem item(Integer sourceSeq, String... codesAndValues) {
        var values = new LinkedHashMap<String, String>();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            values.put(codesAndValues[i], codesAndValues[i + 1]);
        }
        return ListItem.of(sourceSeq, values);
    }

    public static List<FlightId> ids(String... flids) {
        return java.util.Arrays.stream(flids).map(FlightId::of).toList();
    }
}
