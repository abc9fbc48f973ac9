package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.message.FlopSubtype;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What else reaches the mailbox: messages of ignored types ({@code LDM} load messages after a take-off,
 * {@code REGN} registrations, {@code RSTA} resource status, {@code EROR} AODB error reports; the four take turns)
 * and broken messages (a remark cut off, with a wrong end tag, with a bare {@code &}, or without its envelope;
 * the four take turns).
 */
final class BackgroundTraffic {

    private static final List<String> IGNORED_TYPES = List.of("LDM", "REGN", "RSTA", "EROR");

    /** A departure's take-off, after which its load message comes. */
    record TakeOff(String flid, LocalDateTime at) {
    }

    private final SimulationSettings settings;
    private final SplittableRandom random;

    BackgroundTraffic(SimulationSettings settings, SplittableRandom random) {
        this.settings = settings;
        this.random = random;
    }

    void sendIgnored(FlightPlan plan, List<TakeOff> takeOffs, Timeline timeline, int count) {
        int offset = random.nextInt(IGNORED_TYPES.size());
        var byFlid = plan.byFlid();
        for (int i = 0; i < count; i++) {
            var type = IGNORED_TYPES.get((offset + i) % IGNORED_TYPES.size());
            if (type.equals("LDM") && !takeOffs.isEmpty()) {
                var takeOff = ReferenceTables.pick(random, takeOffs);
                var flight = byFlid.get(takeOff.flid());
                int passengers = flight.aircraft().seats() - Draws.between(random, 0, flight.aircraft().seats() / 4);
                var body = "<LDM><FLID>" + flight.flid() + "</FLID><FLNO>" + flight.flightNumber() + "</FLNO><PAXT>"
                        + passengers + "</PAXT><BAGN>" + Draws.between(random, passengers / 2, passengers) + "</BAGN></LDM>";
                timeline.add(takeOff.at().plusMinutes(Draws.between(random, 8, 20)), SimulatedMessage.Kind.IGNORED,
                        flight.flid(), flight.flightNumber() + " LDM: load message, " + passengers + " passengers",
                        new MessageDraft.OtherType("LDM", "UPDT", body));
                continue;
            }
            var flight = ReferenceTables.pick(random, plan.operated());
            var at = daytime();
            switch (type) {
                case "REGN" -> timeline.add(at, SimulatedMessage.Kind.IGNORED, null,
                        "REGN: registration " + flight.registration(), new MessageDraft.OtherType("REGN", "UPDT",
                                "<REGN><RENO>" + flight.registration() + "</RENO><ACFT>" + flight.aircraft().code()
                                        + "</ACFT><OWNR>" + flight.airline() + "</OWNR></REGN>"));
                case "RSTA" -> {
                    var gate = "G" + String.format("%02d", Draws.between(random, 1, 40));
                    timeline.add(at, SimulatedMessage.Kind.IGNORED, null, "RSTA: gate " + gate + " out of service",
                            new MessageDraft.OtherType("RSTA", "UPDT", "<RSTA><RTYP>GATE</RTYP><RKEY>" + gate
                                    + "</RKEY><STAT>OUT OF SERVICE</STAT></RSTA>"));
                }
                default -> timeline.add(at, SimulatedMessage.Kind.IGNORED, null, "EROR: AODB error report",
                        new MessageDraft.OtherType(type, "INFO", "<" + type + "><CODE>E04" + Draws.between(random, 10, 99)
                                + "</CODE><DESC>INTERFACE QUEUE BACKLOG</DESC></" + type + ">"));
            }
        }
    }

    void sendMalformed(FlightPlan plan, Timeline timeline, int count) {
        var breakages = MessageDraft.Breakage.values();
        int offset = random.nextInt(breakages.length);
        for (int i = 0; i < count; i++) {
            var breakage = breakages[(offset + i) % breakages.length];
            var flight = ReferenceTables.pick(random, plan.operated());
            var remark = new FlopComposer(flight, FlopSubtype.REMC).set(FlightField.REMC, "BAGS & CARGO LOADED LATE");
            var intact = new MessageDraft.Flight("FLOP", "REMC", remark.operation());
            double where = 0.33 + random.nextDouble() * 0.34;
            timeline.add(daytime(), SimulatedMessage.Kind.MALFORMED, flight.flid(),
                    flight.flightNumber() + " REMC, broken: " + breakage.name().toLowerCase(Locale.ROOT).replace('_', ' '),
                    new MessageDraft.Broken(intact, breakage, where));
        }
    }

    private LocalDateTime daytime() {
        return settings.operationDay().atTime(LocalTime.of(6, 0))
                .plusSeconds(random.nextInt(17 * 3600));
    }
}
