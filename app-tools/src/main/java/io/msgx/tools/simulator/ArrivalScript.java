package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.message.FlopSubtype;

import java.util.List;
import java.util.SplittableRandom;

import static io.msgx.tools.simulator.FlopComposer.item;

/**
 * An arrival's day, relative to its scheduled time T, its leg time and its delay d: an initial estimate, plan
 * corrections, a cancellation (which ends the story), the previous station's estimated and actual departure, the
 * estimate, the delay, the planned belt, a stand change, the approach time, a refined estimate, a diversion
 * (which ends the story and releases the belt), the runway, landing, status, on-block, airbridge on, the belt.
 */
final class ArrivalScript extends MovementScript {

    ArrivalScript(SplittableRandom random, String homeAirport) {
        super(random, homeAirport);
    }

    @Override
    List<FlopDraft> write(FlightStory story) {
        var flight = story.flight();
        var script = new FlightScript(flight, random);
        var t = flight.scheduled();
        int d = story.delayMinutes();
        int leg = flight.legMinutes();
        var origin = flight.route().get(flight.route().size() - 1).airport();
        var type = flight.nature().equals("D") ? "D" : "I";
        var stand = flight.stand();

        if (story.has(Twist.INITIAL_ESTIMATE)) {
            script.send(t.minusMinutes(leg + 120), script.flop(FlopSubtype.IEST)
                    .time(FlightField.IEST, t.plusMinutes(Draws.between(random, -5, 10))), "initial estimate");
        }
        planChanges.resources(script, story, t.minusMinutes(leg + 100));
        planChanges.corrections(script, story, t.minusMinutes(leg + 90));
        if (story.irregularity() == Irregularity.CANCELLED) {
            PlanChanges.cancel(script, t.minusMinutes(leg + 60));
            return script.drafts();
        }
        var offOrigin = t.minusMinutes(leg).plusMinutes(d);
        script.send(t.minusMinutes(leg + 40), script.flop(FlopSubtype.PEDT).time(FlightField.PEDT, offOrigin),
                "estimated off " + origin);
        script.send(offOrigin.plusMinutes(3), script.flop(FlopSubtype.PADT).time(FlightField.PADT, offOrigin),
                "departed " + origin);
        var estimate = t.plusMinutes(d);
        script.send(offOrigin.plusMinutes(10), script.flop(FlopSubtype.ESTT).time(FlightField.ESTT, estimate), "estimated");
        if (story.delayed() && story.delayReason() != null) {
            var reason = story.delayReason();
            script.send(offOrigin.plusMinutes(11), script.flop(FlopSubtype.DELY).items(item(1, "CODE", reason.code(),
                    "STRT", t.minusMinutes(leg), "DURA", DepartureScript.duration(d), "DESC", reason.description())),
                    "delay " + reason.code() + " " + d + " min");
        }
        planChanges.remarks(script, story, offOrigin.plusMinutes(12));
        var belt = resources.belt(flight.terminal());
        script.send(estimate.minusMinutes(60), script.flop(FlopSubtype.CLDT).items(item(1, "BELT", belt,
                "PCOT", estimate.plusMinutes(10), "PCCT", estimate.plusMinutes(45), "BTYP", type)), "belt " + belt);
        if (story.has(Twist.STAND_CHANGE)) {
            stand = resources.otherStand(stand);
            script.send(estimate.minusMinutes(45), script.flop(FlopSubtype.STND).set(FlightField.STND, stand), "stand " + stand);
        }
        if (story.has(Twist.APPROACH_TIME)) {
            script.send(estimate.minusMinutes(30), script.flop(FlopSubtype.APPT).time(FlightField.APPT, estimate.minusMinutes(8)),
                    "approach time");
        }
        var landing = estimate.plusMinutes(Draws.between(random, -4, 4));
        script.send(estimate.minusMinutes(25), script.flop(FlopSubtype.ESTT).time(FlightField.ESTT, landing), "refined estimate");
        if (story.irregularity() == Irregularity.DIVERTED) {
            var alternate = ReferenceTables.pick(random, ReferenceTables.DOMESTIC.stream()
                    .filter(a -> !a.code().equals(origin)).toList()).code();
            var at = landing.minusMinutes(15);
            script.send(at, script.flop(FlopSubtype.FDIV).set(FlightField.FDIV, "WEATHER BELOW MINIMA")
                    .set(FlightField.FDIV_DDES, alternate).set(FlightField.FDIV_DDIR, "TO"), "diverted to " + alternate);
            script.send(at.plusMinutes(1), script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "DIV"), "status diverted");
            script.send(at.plusMinutes(2), script.flop(FlopSubtype.CLDT).items(List.of()), "belt released");
            return script.drafts();
        }
        if (story.has(Twist.RUNWAY)) {
            var runway = ReferenceTables.pick(random, ReferenceTables.RUNWAYS);
            script.send(landing.minusMinutes(12), script.flop(FlopSubtype.RUNW).set(FlightField.RUNW, runway), "runway " + runway);
        }
        script.send(landing, script.flop(FlopSubtype.ACTT).time(FlightField.ACTT, landing), "landed");
        script.send(landing.plusMinutes(1), script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "LND"), "status landed");
        var onBlock = landing.plusMinutes(Draws.between(random, 5, 12));
        script.send(onBlock, script.flop(FlopSubtype.CHOT).items(item(1, "CHTM", onBlock, "CHID", "ON", "CHST", stand)),
                "on-block at " + stand);
        script.send(onBlock, script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "ARR"), "status arrived");
        if (stand.startsWith("5")) {
            script.send(onBlock.plusMinutes(2), script.flop(FlopSubtype.ABTM).items(item(1,
                    "ABDG", AirportResources.airbridgeOf(stand), "ABOP", "C", "AOTM", onBlock.plusMinutes(2))), "airbridge on");
        }
        if (story.has(Twist.TOW)) {
            var towedTo = resources.otherStand(stand);
            script.send(onBlock.plusMinutes(6), script.flop(FlopSubtype.TIPT).items(item(1, "TRTM", onBlock.plusMinutes(6),
                    "TRST", towedTo)), "towed to " + towedTo);
        }
        script.send(onBlock.plusMinutes(8), script.flop(FlopSubtype.CLDT).items(item(1, "BELT", belt,
                "PCOT", onBlock.plusMinutes(8), "PCCT", onBlock.plusMinutes(40), "BTYP", type)), "first bag on belt " + belt);
        return script.drafts();
    }
}
