package io.msgx.tools.simulator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.msgx.pipeline.codec.ReferenceAction;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.codec.ReferenceDocument;
import io.msgx.pipeline.codec.ReferenceRecord;

import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The reference data the AODB broadcasts (sis-format §6), as real traffic carries it: before the daily plan, the full
 * list of each table the day draws from ({@code DNLD}, with {@code RECS}); during the day a gate renamed and an
 * airline's terminals changed ({@code UPD}), a temporary stand opened ({@code ADD}) and closed again at night
 * ({@code DEL}). Records carry what real records carry: an airbridge serving two stands repeats {@code STND}, an
 * airline's terminals are {@code TRML} with {@code MVIN}/{@code FLIN} attributes, names come in Chinese too.
 */
final class ReferenceTraffic {

    /** The first table goes out here, the others a minute apart, all before the plan. */
    static final LocalTime FIRST_DOWNLOAD = LocalTime.of(0, 5);

    /** The temporary stand of the day. */
    static final String TEMPORARY_STAND = "699";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final LocalDate day;

    ReferenceTraffic(LocalDate day) {
        this.day = day;
    }

    void send(Timeline timeline) {
        var at = day.atTime(FIRST_DOWNLOAD);
        for (var table : List.of(airlines(), airports(), aircraftTypes(), delayCodes(), gates(), stands(), airbridges(),
                counters(), belts(), chutes())) {
            timeline.add(at, SimulatedMessage.Kind.REFERENCE, null, table.referenceType() + " DNLD: "
                    + table.records().size() + " record(s)", new MessageDraft.Reference(table));
            at = at.plusMinutes(1);
        }
        send(timeline, day.atTime(10, 0), "G17 renamed for works", new ReferenceAnswer("GLST", ReferenceAction.UPD,
                1, List.of(record(r -> gate(r, "G17", "Gate 17 (works: use G18)", "17号登机口（施工）")))));
        send(timeline, day.atTime(11, 0), "temporary stand " + TEMPORARY_STAND, new ReferenceAnswer("SLST",
                ReferenceAction.ADD, 1, List.of(record(r -> stand(r, TEMPORARY_STAND, "R")))));
        send(timeline, day.atTime(14, 0), "CA's terminals changed", new ReferenceAnswer("AIRL", ReferenceAction.UPD, 1,
                List.of(record(r -> airline(r, new ReferenceTables.Airline("CA", "B", true), "T3")))));
        send(timeline, day.atTime(23, 40), "temporary stand " + TEMPORARY_STAND + " closed", new ReferenceAnswer("SLST",
                ReferenceAction.DEL, 1, List.of(record(r -> r.put("SCOD", TEMPORARY_STAND)))));
    }

    private static void send(Timeline timeline, java.time.LocalDateTime at, String what, ReferenceAnswer answer) {
        timeline.add(at, SimulatedMessage.Kind.REFERENCE, null,
                answer.referenceType() + " " + answer.action() + ": " + what, new MessageDraft.Reference(answer));
    }

    private static ReferenceAnswer airlines() {
        return download("AIRL", ReferenceTables.AIRLINES.stream()
                .map(airline -> record(r -> airline(r, airline, airline.homeCarrier() ? "T2" : "T1"))).toList());
    }

    private static void airline(ObjectNode r, ReferenceTables.Airline airline, String terminal) {
        r.put("ITOP", airline.code());
        r.put("ONAM", airline.code() + " AIRLINE");
        r.put("CTRY", airline.homeCarrier() ? "CN" : "XX");
        var terminals = r.putArray("TRML");
        for (var movement : List.of("A", "D")) {
            terminals.addObject().put("@MVIN", movement).put("@FLIN", airline.homeCarrier() ? "D" : "I")
                    .put("#text", terminal);
        }
        r.put("DORI", airline.homeCarrier() ? "D" : "I");
    }

    private static ReferenceAnswer airports() {
        var airports = new ArrayList<>(ReferenceTables.DOMESTIC);
        airports.addAll(ReferenceTables.ABROAD);
        return download("ARPT", airports.stream().map(airport -> record(r -> {
            r.put("ITCD", airport.code());
            r.put("BDIS", airport.nature());
            r.put("HAUL", airport.blockMinutes() > 360 ? "L" : "S");
            r.putObject("ABBR").put("@CODE", airport.code().substring(0, 2));
        })).toList());
    }

    private static ReferenceAnswer aircraftTypes() {
        var types = new ArrayList<>(ReferenceTables.NARROW_BODIES);
        types.addAll(ReferenceTables.WIDE_BODIES);
        return download("AIRC", types.stream().map(type -> record(r -> {
            r.put("ITAT", type.code());
            r.put("MAXP", Integer.toString(type.seats()));
            r.put("CHAP", type.wideBody() ? "E" : "C");
            r.put("MABR", type.wideBody() ? "2" : "1");
        })).toList());
    }

    private static ReferenceAnswer delayCodes() {
        return download("DLYL", ReferenceTables.DELAY_REASONS.stream().map(reason -> record(r -> {
            r.put("DCOD", reason.code());
            r.put("DDES", reason.description());
        })).toList());
    }

    private static ReferenceAnswer gates() {
        var records = new ArrayList<ReferenceRecord>();
        for (int n = 1; n <= 40; n++) {
            var code = String.format("G%02d", n);
            records.add(record(r -> gate(r, code, "Gate " + code.substring(1), code.substring(1) + "号登机口")));
        }
        for (int n = 1; n <= 9; n++) {
            var code = "B0" + n;
            var number = Integer.toString(n);
            records.add(record(r -> gate(r, code, "Bus gate " + number, "远机位登机口" + number)));
        }
        return download("GLST", records);
    }

    private static void gate(ObjectNode r, String code, String name, String chineseName) {
        r.put("GCOD", code);
        r.put("GTNM", name);
        r.put("GNMC", chineseName);
        r.put("GCAT", code.startsWith("G") ? "C" : "R");
        r.put("GTML", "T2");
    }

    private static ReferenceAnswer stands() {
        var records = new ArrayList<ReferenceRecord>();
        for (int n = 501; n <= 540; n++) {
            var code = Integer.toString(n);
            records.add(record(r -> stand(r, code, "C")));
        }
        for (int n = 601; n <= 660; n++) {
            var code = Integer.toString(n);
            records.add(record(r -> stand(r, code, "R")));
        }
        return download("SLST", records);
    }

    private static void stand(ObjectNode r, String code, String category) {
        r.put("SCOD", code);
        r.put("STNM", "Stand " + code);
        r.put("SNMC", code + "机位");
        r.put("SATC", category);
        r.put("STML", "T2");
        r.put("REMT", "");
    }

    /** Airbridge {@code 2nn} serves stand {@code 5nn}; every fifth also serves the stand beside it. */
    private static ReferenceAnswer airbridges() {
        var records = new ArrayList<ReferenceRecord>();
        for (int n = 1; n <= 40; n++) {
            var stand = Integer.toString(500 + n);
            var bridge = AirportResources.airbridgeOf(stand);
            int number = n;
            records.add(record(r -> {
                r.put("ABCD", bridge);
                r.put("CDSC", bridge + "号廊桥");
                var stands = r.putArray("STND").add(stand);
                if (number % 5 == 0 && number < 40) {
                    stands.add(Integer.toString(501 + number));
                }
                r.put("GATE", String.format("G%02d", number));
            }));
        }
        return download("ABDG", records);
    }

    /** Check-in counters: islands A–H (T1) and J–R (T2), 39 desks each. */
    private static ReferenceAnswer counters() {
        var records = new ArrayList<ReferenceRecord>();
        for (var island : "ABCDEFGHJKLMNPQR".toCharArray()) {
            for (int n = 1; n <= 39; n++) {
                var code = island + String.format("%02d", n);
                records.add(record(r -> {
                    r.put("CCOD", code);
                    r.put("CTML", island < 'J' ? "T1" : "T2");
                }));
            }
        }
        return download("CLST", records);
    }

    private static ReferenceAnswer belts() {
        var records = new ArrayList<ReferenceRecord>();
        for (int n = 1; n <= 36; n++) {
            if (n <= 12 || n >= 21) {
                var code = String.format("%02d", n);
                records.add(record(r -> {
                    r.put("BCOD", code);
                    r.put("BTML", code.compareTo("21") < 0 ? "T1" : "T2");
                }));
            }
        }
        return download("BLST", records);
    }

    private static ReferenceAnswer chutes() {
        var records = new ArrayList<ReferenceRecord>();
        for (int n = 1; n <= 60; n++) {
            var code = String.format("CH%04d", n);
            var chineseName = n + "号滑槽";
            records.add(record(r -> {
                r.put("CCOD", code);
                r.put("CNMC", chineseName);
            }));
        }
        return download("CHLT", records);
    }

    private static ReferenceAnswer download(String type, List<ReferenceRecord> records) {
        return new ReferenceAnswer(type, ReferenceAction.DNLD, records.size(), records);
    }

    /** A record whose first member, its key, the filler puts first. */
    private static ReferenceRecord record(Consumer<ObjectNode> filler) {
        var node = NODES.objectNode();
        filler.accept(node);
        return new ReferenceRecord(node.fields().next().getValue().asText(), ReferenceDocument.of(node));
    }
}
