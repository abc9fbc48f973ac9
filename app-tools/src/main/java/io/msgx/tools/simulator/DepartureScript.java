package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FlopSubtype;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.msgx.tools.simulator.FlopComposer.item;

/**
 * A departure's day, relative to its scheduled time T and its delay d: check-in counters and chutes three hours
 * ahead, the turnaround link, an ATFM slot, the gate, plan corrections, a cancellation (which ends the story and
 * releases gate and counters), the delay, EOBT/TOBT, a gate or stand change, counters closing, boarding, last and
 * final call, gate closed, airbridge off, engine start, off-block, runway, a rejected take-off, take-off, status,
 * a return, and the next station's estimated and actual arrival.
 */
final class DepartureScript extends MovementScript {

    DepartureScript(SplittableRandom random, String homeAirport) {
        super(random, homeAirport);
    }

    @Override
    List<FlopDraft> write(FlightStory story) {
        var flight = story.flight();
        var script = new FlightScript(flight, random);
        var t = flight.scheduled();
        var type = flight.nature().equals("D") ? "D" : "I";
        int d = story.delayMinutes();
        int slot = story.has(Twist.CDM_SLOT) ? Math.max(d, Draws.between(random, 10, 35)) : 0;
        d = Math.max(d, slot);
        var stand = flight.stand();
        var gate = resources.gateFor(stand);

        planChanges.resources(script, story, t.minusMinutes(200));
        var counters = resources.counters(flight.terminal(), flight.aircraft().wideBody()
                ? Draws.between(random, 4, 6) : Draws.between(random, 2, 4));
        int business = flight.aircraft().wideBody() ? 2 : 1;
        script.send(t.minusMinutes(180), script.flop(FlopSubtype.CKDT).items(counters(counters, business, t, type, null)),
                "check-in counters " + counters);
        script.send(t.minusMinutes(175), script.flop(FlopSubtype.CHDT).items(item(1, "CHUT", resources.chute(),
                "CCLS", "Y", "PCBT", t.minusMinutes(150), "PCET", t.minusMinutes(40), "CTYP", type)), "baggage chute");
        if (flight.turnaround() != null) {
            var inbound = flight.turnaround();
            script.send(t.minusMinutes(165), script.flop(FlopSubtype.TAOP).set(FlightField.TAOP, inbound.airline())
                    .set(FlightField.TAFL, inbound.flightNumber()).set(FlightField.TAID, inbound.flid()),
                    "turnaround of " + inbound.flightNumber());
        }
        if (slot > 0) {
            script.send(t.minusMinutes(150), script.flop(FlopSubtype.COBT).time(FlightField.COBT, t.plusMinutes(slot)),
                    "ATFM slot, off-block " + slot + " min late");
            script.send(t.minusMinutes(150), script.flop(FlopSubtype.CTOT).time(FlightField.CTOT, t.plusMinutes(slot + 15)),
                    "calculated take-off");
        }
        script.send(t.minusMinutes(140), gate(script, gate, t, d, type, null, null), "gate " + gate);
        planChanges.corrections(script, story, t.minusMinutes(130));

        if (story.irregularity() == Irregularity.CANCELLED) {
            var at = t.minusMinutes(100);
            PlanChanges.cancel(script, at);
            script.send(at.plusMinutes(2), script.flop(FlopSubtype.GTDT).items(List.of()), "gate released");
            script.send(at.plusMinutes(2), script.flop(FlopSubtype.CKDT).items(List.of()), "counters released");
            return script.drafts();
        }
        if (story.delayed() && story.delayReason() != null) {
            var reason = story.delayReason();
            script.send(t.minusMinutes(95), script.flop(FlopSubtype.DELY).items(item(1, "CODE", reason.code(),
                    "STRT", t, "DURA", duration(story.delayMinutes()), "DESC", reason.description())),
                    "delay " + reason.code() + " " + story.delayMinutes() + " min");
        }
        if (d > 0) {
            script.send(t.minusMinutes(94), script.flop(FlopSubtype.ESTT).time(FlightField.ESTT, t.plusMinutes(d)),
                    "estimated off " + d + " min late");
        }
        planChanges.remarks(script, story, t.minusMinutes(90));
        script.send(t.minusMinutes(80), script.flop(FlopSubtype.EOBT).time(FlightField.EOBT, t.plusMinutes(d)), "EOBT");
        if (story.has(Twist.STAND_CHANGE)) {
            stand = resources.otherStand(stand);
            script.send(t.minusMinutes(75), script.flop(FlopSubtype.STND).set(FlightField.STND, stand), "stand " + stand);
        }
        if (story.has(Twist.GATE_CHANGE) || story.has(Twist.STAND_CHANGE)) {
            var previous = gate;
            gate = resources.gateFor(stand);
            if (story.has(Twist.GATE_CHANGE) && gate.equals(previous)) {
                gate = resources.gateFor(resources.otherContactStand(stand));
            }
            if (!gate.equals(previous)) {
                script.send(t.minusMinutes(70), gate(script, gate, t, d, type, null, null),
                        "gate change " + previous + " to " + gate);
            }
        }
        script.send(t.minusMinutes(60), script.flop(FlopSubtype.TOBT)
                .time(FlightField.TOBT, t.plusMinutes(d + Draws.between(random, -2, 3))), "TOBT");

        var closing = t.plusMinutes(d - 45);
        script.send(closing, script.flop(FlopSubtype.CKDT).items(counters(counters, business, t, type, closing)),
                "check-in closed");
        var boarding = t.plusMinutes(d - 40);
        script.send(boarding, script.flop(FlopSubtype.BOTM).time(FlightField.BOTM, boarding), "boarding");
        script.send(boarding, gate(script, gate, t, d, type, boarding, null), "gate open");
        script.send(boarding, script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "BOR"), "status boarding");
        if (story.has(Twist.TIMED_INDICATOR)) {
            script.send(boarding, script.flop(FlopSubtype.PORT).time(FlightField.PORT_POTM, boarding)
                    .set(FlightField.PORT_POID, "O"), "indicator open");
        }
        script.send(t.plusMinutes(d - 20), script.flop(FlopSubtype.LACL).time(FlightField.LACL, t.plusMinutes(d - 20)),
                "last call");
        script.send(t.plusMinutes(d - 15), script.flop(FlopSubtype.FINT).time(FlightField.FINT, t.plusMinutes(d - 15)),
                "final call");
        script.send(t.plusMinutes(d - 10), gate(script, gate, t, d, type, boarding, t.plusMinutes(d - 10)), "gate closed");
        if (stand.startsWith("5")) {
            script.send(t.plusMinutes(d - 4), script.flop(FlopSubtype.ABTM).items(item(1,
                    "ABDG", AirportResources.airbridgeOf(stand), "ABOP", "D", "AOTM", t.plusMinutes(d - 4))),
                    "airbridge off");
        }
        script.send(t.plusMinutes(d - 2), script.flop(FlopSubtype.EGSR).time(FlightField.EGSR, t.plusMinutes(d - 2)),
                "engine start request");
        var offBlock = t.plusMinutes(d);
        script.send(offBlock, script.flop(FlopSubtype.CHOT).items(item(1, "CHTM", offBlock, "CHID", "OFF", "CHST", stand)),
                "off-block");
        if (story.has(Twist.PUSH_BACK)) {
            script.send(offBlock, script.flop(FlopSubtype.PSHT).items(item(1, "PSTM", offBlock, "PSID", "O", "PUST", stand)),
                    "push-back from " + stand);
        }
        script.send(offBlock.plusMinutes(2), script.flop(FlopSubtype.EGST).time(FlightField.EGST, offBlock.plusMinutes(2)),
                "engines started");
        if (story.has(Twist.RUNWAY)) {
            var runway = ReferenceTables.pick(random, ReferenceTables.RUNWAYS);
            script.send(offBlock.plusMinutes(4), script.flop(FlopSubtype.RUNW).set(FlightField.RUNW, runway), "runway " + runway);
        }
        var takeOff = offBlock.plusMinutes(Draws.between(random, 12, 22));
        if (story.irregularity() == Irregularity.ABORTED) {
            var rejected = takeOff.minusMinutes(1);
            script.send(rejected, script.flop(FlopSubtype.FLAB).set(FlightField.FLAB, "REJECTED TAKEOFF")
                    .set(FlightField.FLAB_ARES, "RTO"), "rejected take-off");
            takeOff = takeOff.plusMinutes(Draws.between(random, 45, 90));
        }
        script.send(takeOff, script.flop(FlopSubtype.ACTT).time(FlightField.ACTT, takeOff), "take-off");
        script.send(takeOff.plusMinutes(1), script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "DEP"), "status departed");
        if (story.irregularity() == Irregularity.RETURNED) {
            var back = takeOff.plusMinutes(Draws.between(random, 20, 40));
            script.send(back, script.flop(FlopSubtype.FRET).set(FlightField.FRET, "CABIN PRESSURE")
                    .set(FlightField.FRET_REID, "TECH"), "returned");
            script.send(back.plusMinutes(1), script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "RTN"), "status returned");
            return script.drafts();
        }
        if (story.has(Twist.DOWNLINE_TIMES)) {
            var eta = takeOff.plusMinutes(flight.legMinutes() - 10);
            script.send(takeOff.plusMinutes(8), script.flop(FlopSubtype.NEAT).time(FlightField.NEAT, eta), "next station ETA");
            var ata = eta.plusMinutes(Draws.between(random, -6, 6));
            script.send(ata.plusMinutes(3), script.flop(FlopSubtype.NAAT).time(FlightField.NAAT, ata), "arrived at next station");
        }
        return script.drafts();
    }

    private static FlopComposer gate(FlightScript script, String gate, LocalDateTime t, int d, String type,
                                     LocalDateTime opened, LocalDateTime closed) {
        var values = new ArrayList<Object>(List.of("GATE", gate, "PGOT", t.plusMinutes(d - 40), "PGCT", t.plusMinutes(d - 10)));
        if (opened != null) {
            values.addAll(List.of("GOTM", opened));
        }
        if (closed != null) {
            values.addAll(List.of("GCTM", closed));
        }
        values.addAll(List.of("GTYP", type));
        return script.flop(FlopSubtype.GTDT).items(item(1, values.toArray()));
    }

    private static List<ListItem> counters(List<String> counters, int business, LocalDateTime t, String type,
                                           LocalDateTime closed) {
        var items = new ArrayList<ListItem>();
        for (int i = 0; i < counters.size(); i++) {
            var values = new ArrayList<Object>(List.of("CHKC", counters.get(i), "CCLS", i < business ? "C" : "Y",
                    "PCOT", t.minusMinutes(180), "PCCT", t.minusMinutes(45)));
            if (closed != null) {
                values.addAll(List.of("COTM", t.minusMinutes(180), "CCTM", closed));
            }
            values.addAll(List.of("CTYP", type));
            items.add(item(i + 1, values.toArray()));
        }
        return items;
    }

    static String duration(int minutes) {
        return String.format("%02d%02d", minutes / 60, minutes % 60);
    }
}
