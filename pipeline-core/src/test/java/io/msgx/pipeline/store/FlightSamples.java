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
                values.put(code, list.nestedItems().containsKey(code)
                        ? io.msgx.pipeline.codec.NestedItems.write(java.util.List.of(java.util.Map.of("VSCD", code + n)))
                        : code + n);
            }
            items.add(ListItem.of(1, values));
        }
        var values = new LinkedHashMap<String, String>();
        values.put(codes.get(0), list.code() + "-B");
        items.add(ListItem.of(null, values));
        return items;
    }

    /**
     * A flight with the fields and lists of sis-format v2 (issue 22) in Chinese and with the real item fields: the
     * exception objects' attributes, {@code PORT}'s children, the VIP counts, {@code EXSC}/{@code EXSR}, {@code CHDT}'s
     * actual times, {@code SRVT}/{@code VIPF}'s real elements and the lists {@code PSHT} and {@code TIPT}.
     */
    public static FlightState contractV2(String flid) {
        var fields = new EnumMap<FlightField, String>(FlightField.class);
        fields.put(FlightField.FLNO, "CA1405");
        fields.put(FlightField.EXSC, "DELAY");
        fields.put(FlightField.EXSR, "天气原因");
        fields.put(FlightField.FDIV, "目的地天气");
        fields.put(FlightField.FDIV_DDES, "HKG");
        fields.put(FlightField.FDIV_DDIR, "TO");
        fields.put(FlightField.FRET, "机械故障");
        fields.put(FlightField.FRET_REID, "R1");
        fields.put(FlightField.FLAB, "旅客原因");
        fields.put(FlightField.FLAB_ARES, "A7");
        fields.put(FlightField.PORT_POTM, "11MAR240815");
        fields.put(FlightField.PORT_POID, "O");
        fields.put(FlightField.VIPP, "2");
        fields.put(FlightField.VIPR, "1");
        var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        lists.put(FlightList.CHDT, List.of(item(1, "CHUT", "C12", "PCBT", "11MAR240700", "PCET", "11MAR240800",
                "CBTM", "11MAR240705", "CETM", "11MAR240810")));
        lists.put(FlightList.DELY, List.of(item(null, "CODE", "93", "STRT", "11MAR240835", "DURA", "0045",
                "DESC", "前序航班晚到")));
        lists.put(FlightList.SRVT, List.of(item(null, "SRTC", "WCHR", "SRQT", "2", "SRST", "11MAR240700",
                "SRET", "11MAR240730", "SRPR", "地服", "SANR", "N1", "SARR", "轮椅不足")));
        lists.put(FlightList.VIPF, List.of(item(null, "VPCD", "V001", "VFES", "贵宾厅一")));
        lists.put(FlightList.PSHT, List.of(item(1, "PSTM", "11MAR240840", "PSID", "O", "PUST", "504"),
                item(2, "PSTM", "11MAR241010", "PSID", "I", "PUST", "212")));
        lists.put(FlightList.TIPT, List.of(item(null, "TRTM", "11MAR240900", "TRST", "远机位 7")));
        return new FlightState(FlightId.of(flid), FlightStatus.ACTIVE, 2, DAY, 1002,
                FlightFields.of(fields), FlightLists.of(lists));
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
