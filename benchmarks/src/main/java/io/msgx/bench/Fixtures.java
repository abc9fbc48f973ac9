package io.msgx.bench;

import io.msgx.domain.engine.Decision;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightSnapshot;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.pump.FlightReads;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * The inputs of the benchmarks: realistic SIS messages built as values (shaped like sis-format.md §4, with
 * the lists a real departure or arrival carries), their XML through the real codec's {@code encode}, and
 * flight states made by the real engine, so every benchmark measures the success path.
 */
public final class Fixtures {

    public static final LocalDateTime SENT_AT = LocalDateTime.of(2024, 3, 11, 6, 0);
    public static final Instant UPDATED_AT = Instant.parse("2024-03-10T22:00:00Z");

    /** The one full flight of the single-flight benchmarks. */
    public static final String FLID = "20240311CA1405D";
    /** A code-share master, its two children, and a plain flight that a CSHR makes the third child. */
    public static final String MASTER = "20240311MU5101D";
    public static final String CHILD_1 = "20240311FM9101D";
    public static final String CHILD_2 = "20240311KE5801D";
    public static final String JOINER = "20240311DL6301D";
    /** A FLID no store holds yet. */
    public static final String NEW_FLID = "20240311ZH9999D";

    private Fixtures() {
    }

    public static FlightStateEngine engine() {
        return new FlightStateEngine(EngineSettings.defaults());
    }

    public static MessageMeta meta(String type, String subtype, long seqn) {
        return MessageMeta.of("AODB", type, subtype, Long.toString(seqn), SENT_AT);
    }

    public static String xml(String type, String subtype, FlightMessage message) {
        return new JacksonXmlCodec().encode(meta(type, subtype, 4711), message);
    }

    public static ScheduleMessage dnld(List<FlightRecord> records) {
        return new ScheduleMessage(ScheduleKind.DNLD, records.size(), records);
    }

    public static ScheduleMessage dnld(FlightRecord... records) {
        return dnld(List.of(records));
    }

    /**
     * A departure as the daily package carries it: 23 scalars and gates (2), check-in counters (6), planned
     * stand, chutes (2), route and entire route (2 points each) and a service record. {@code variant} moves
     * the stand, the aircraft and the second gate, as a re-sent schedule would.
     */
    public static FlightRecord departure(String flid, String airline, int number, int variant) {
        var flno = airline + number;
        var sodt = String.format("11MAR24%02d%02d", 6 + number % 16, (number * 5) % 60);
        var patch = fields(
                "FFID", airline + "-" + flno + "-D-" + sodt + "-D",
                "ALCD", airline, "FLNO", flno, "MVIN", "D", "SODT", sodt,
                "FLTY", "W", "FLIN", "D", "ACFT", variant == 0 ? "321" : "333", "RENO", variant == 0 ? "B6591" : "B6077",
                "TRML", "T2", "MAXP", variant == 0 ? "185" : "301", "STND", variant == 0 ? "504" : "212", "RUNW", "02L",
                "FTSS", "SCH", "EXSS", "ONT", "REMC", "ON TIME", "ESTT", sodt,
                "TAOP", airline, "TAFL", airline + (number + 1), "TAID", flid + "A",
                "PHAG", "BGS", "FHAG", "BGS", "MHAG", "AMECO");
        patch = patch.with(FlightList.GTDT, List.of(
                item(1, "GATE", "G28", "PGOT", "11MAR240735", "PGCT", "11MAR240820", "GTYP", "D"),
                item(2, "GATE", variant == 0 ? "G29" : "G31", "PGOT", "11MAR240735", "PGCT", "11MAR240820", "GTYP", "D")));
        patch = patch.with(FlightList.CKDT, IntStream.rangeClosed(1, 6)
                .mapToObj(i -> item(i, "CHKC", String.format("%02d", 10 + i), "CCLS", i <= 2 ? "F" : "Y",
                        "PCOT", "11MAR240535", "PCCT", "11MAR240755", "CTYP", "D"))
                .toList());
        patch = patch.with(FlightList.PSDT, List.of(
                item(1, "PSST", variant == 0 ? "504" : "212", "STST", "11MAR240700", "STET", "11MAR240850")));
        patch = patch.with(FlightList.CHDT, List.of(
                item(1, "CHUT", "CH0021", "CCLS", "Y", "PCBT", "11MAR240535", "PCET", "11MAR240800", "CTYP", "D"),
                item(2, "CHUT", "CH0022", "CCLS", "F", "PCBT", "11MAR240535", "PCET", "11MAR240800", "CTYP", "D")));
        patch = patch.with(FlightList.ROUT, List.of(
                item(1, "APCD", "PEK", "SCDT", sodt),
                item(2, "APCD", "CTU", "SCAT", "11MAR241100")));
        patch = patch.with(FlightList.ERUT, List.of(
                item(1, "APCD", "PEK", "SCDT", sodt),
                item(2, "APCD", "CTU", "SCAT", "11MAR241100")));
        patch = patch.with(FlightList.SRVT, List.of(item(1, "SVCD", "CATR", "SVTM", "11MAR240700", "SVRM", "40 MEALS")));
        return new FlightRecord(flid, patch);
    }

    /** An arrival: fewer scalars, a belt list (2 carousels) instead of check-in, a stand, the route. */
    public static FlightRecord arrival(String flid, String airline, int number) {
        var flno = airline + number;
        var sodt = String.format("11MAR24%02d%02d", 6 + number % 16, (number * 7) % 60);
        var patch = fields(
                "FFID", airline + "-" + flno + "-A-" + sodt + "-D",
                "ALCD", airline, "FLNO", flno, "MVIN", "A", "SODT", sodt,
                "FLTY", "W", "FLIN", "D", "ACFT", "320", "RENO", "B" + (3000 + number),
                "TRML", "T2", "MAXP", "158", "STND", Integer.toString(100 + number % 90), "RUNW", "20R",
                "FTSS", "SCH", "ESTT", sodt, "PHAG", "BGS");
        patch = patch.with(FlightList.CLDT, List.of(
                item(1, "BELT", "05", "BCLS", "Y", "PCOT", sodt, "PCCT", "11MAR242359", "BTYP", "D"),
                item(2, "BELT", "06", "BCLS", "F", "PCOT", sodt, "PCCT", "11MAR242359", "BTYP", "D")));
        patch = patch.with(FlightList.PSDT, List.of(item(1, "PSST", Integer.toString(100 + number % 90))));
        patch = patch.with(FlightList.ROUT, List.of(item(1, "APCD", "SHA", "SCDT", "11MAR240500"),
                item(2, "APCD", "PEK", "SCAT", sodt)));
        return new FlightRecord(flid, patch);
    }

    /** A daily package of {@code count} flights, departures and arrivals alternating. */
    public static ScheduleMessage schedulePackage(int count) {
        var records = new ArrayList<FlightRecord>(count);
        for (int i = 1; i <= count; i++) {
            var flid = String.format("20240311P%04d", i);
            records.add(i % 2 == 0 ? departure(flid, "MU", 5000 + i, 0) : arrival(flid, "CZ", 3000 + i));
        }
        return dnld(records);
    }

    /** {@code FLOP GTDT}: the whole gate list replaced by two new gates. */
    public static FlightOperation gateChange(String flid) {
        return new FlightOperation(FlopSubtype.GTDT, flid, FlightPatch.empty().with(FlightList.GTDT, List.of(
                item(1, "GATE", "G41", "PGOT", "11MAR240740", "PGCT", "11MAR240825", "GTYP", "D"),
                item(2, "GATE", "G42", "PGOT", "11MAR240740", "PGCT", "11MAR240825", "GTYP", "D"))));
    }

    /** {@code FLOP CSHR}: {@code flid} becomes a code-share child of {@code master}. */
    public static FlightOperation joinCodeShare(String flid, String master) {
        return new FlightOperation(FlopSubtype.CSHR, flid, fields("CSOP", "DL", "CSFT", "DL6301", "MAID", master));
    }

    /** A code-share child's record: a departure whose MAID names its master. */
    public static FlightRecord child(String flid, String airline, int number, String master) {
        var record = departure(flid, airline, number, 0);
        var patch = record.patch()
                .with(FlightField.CSOP, FieldChange.of(airline))
                .with(FlightField.CSFT, FieldChange.of(airline + number))
                .with(FlightField.MAID, FieldChange.of(master));
        return new FlightRecord(flid, patch);
    }

    /**
     * The states the engine makes of a schedule on an empty store: the "existing flights" of the update, FLOP
     * and code-share benchmarks.
     */
    public static MapFlightStore storeWith(FlightRecord... records) {
        var decision = engine().apply(FlightSnapshot.complete(List.of()), dnld(records), 1);
        var store = new MapFlightStore();
        store.save(changes(decision).stream().map(FlightChange::after).toList(), UPDATED_AT);
        return store;
    }

    /** The snapshot {@code FlightProcessor} would read for {@code message}: two batched reads, as in production. */
    public static FlightSnapshot snapshotFor(FlightStateEngine engine, FlightStore store, FlightMessage message) {
        return FlightReads.snapshotFor(engine, store, message);
    }

    public static List<FlightChange> changes(Decision decision) {
        if (decision instanceof Decision.Applied applied) {
            return applied.changes();
        }
        throw new IllegalStateException("fixture expected an applied decision, got " + decision);
    }

    static FlightPatch fields(String... codesAndValues) {
        var patch = FlightPatch.empty();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            patch = patch.with(FlightField.valueOf(codesAndValues[i]), FieldChange.of(codesAndValues[i + 1]));
        }
        return patch;
    }

    static ListItem item(Integer seq, String... codesAndValues) {
        var values = new LinkedHashMap<String, String>();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            values.put(codesAndValues[i], codesAndValues[i + 1]);
        }
        return ListItem.of(seq, values);
    }

    /** An in-memory {@link FlightStore} over a map: only what {@link FlightReads} needs to build a snapshot. */
    public static final class MapFlightStore implements FlightStore {

        private final Map<FlightId, FlightState> flights = new TreeMap<>();

        @Override
        public List<FlightState> find(Collection<FlightId> flids) {
            return flids.stream().map(flights::get).filter(java.util.Objects::nonNull).toList();
        }

        @Override
        public List<FlightState> findChildrenOf(Collection<FlightId> masters) {
            return flights.values().stream()
                    .filter(f -> f.masterId().filter(masters::contains).isPresent())
                    .toList();
        }

        /** Nothing is ever archived here. */
        @Override
        public Map<FlightId, Long> formerVersions(Collection<FlightId> absent) {
            return Map.of();
        }

        @Override
        public void save(Collection<FlightState> states, Instant now) {
            states.forEach(s -> flights.put(s.flid(), s));
        }

        public FlightState get(String flid) {
            return flights.get(FlightId.of(flid));
        }
    }
}
