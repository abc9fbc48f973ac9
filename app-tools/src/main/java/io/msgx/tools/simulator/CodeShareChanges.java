package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.message.FlopSubtype;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code CSHR} on a few code-share children (15 %, at least one): the partner moves its code to another master of
 * the same movement within 90 minutes, or ends the code-share (empty {@code MAID}, {@code CSOP}, {@code CSFT}).
 * Keeps where every child's link ends, which decides what a master's deletion takes with it.
 */
final class CodeShareChanges {

    private static final double SHARE = 0.15;

    private final SplittableRandom random;
    private final Map<String, String> masterOf = new LinkedHashMap<>();

    CodeShareChanges(SplittableRandom random, FlightPlan plan) {
        this.random = random;
        plan.children().forEach(c -> masterOf.put(c.flid(), c.codeShare().masterFlid()));
    }

    void send(FlightPlan plan, Timeline timeline, LocalDateTime floor) {
        var children = plan.children();
        var byFlid = plan.byFlid();
        var masters = plan.operated().stream().filter(f -> plan.isMaster(f.flid())).toList();
        for (var child : Draws.choose(random, children, Draws.quota(SHARE, children.size()))) {
            var master = byFlid.get(child.codeShare().masterFlid());
            var latest = master.scheduled().minusMinutes(90);
            var earliest = floor.plusMinutes(30);
            long window = Math.max(0, Duration.between(earliest, latest).toMinutes());
            var at = earliest.plusMinutes(window == 0 ? 0 : random.nextLong(window)).plusSeconds(random.nextInt(60));
            var others = masters.stream()
                    .filter(m -> !m.flid().equals(master.flid()) && m.movement() == child.movement())
                    .filter(m -> Math.abs(Duration.between(m.scheduled(), child.scheduled()).toMinutes()) <= 90)
                    .toList();
            var cshr = new FlopComposer(child, FlopSubtype.CSHR);
            String what;
            if (!others.isEmpty() && Draws.chance(random, 0.5)) {
                var target = ReferenceTables.pick(random, others);
                cshr.set(FlightField.CSOP, child.codeShare().operator()).set(FlightField.CSFT, child.codeShare().flight())
                        .set(FlightField.MAID, target.flid());
                masterOf.put(child.flid(), target.flid());
                what = "code moves from " + master.flightNumber() + " to " + target.flightNumber();
            } else {
                cshr.set(FlightField.MAID, "").set(FlightField.CSOP, "").set(FlightField.CSFT, "");
                masterOf.put(child.flid(), null);
                what = "code-share with " + master.flightNumber() + " ends";
            }
            timeline.add(at, SimulatedMessage.Kind.FLOP, child.flid(), child.flightNumber() + " CSHR: " + what,
                    new MessageDraft.Flight("FLOP", "CSHR", cshr.operation()));
        }
    }

    /** The children linked to {@code masterFlid} at the end of the day. */
    List<String> childrenOf(String masterFlid) {
        return masterOf.entrySet().stream().filter(e -> masterFlid.equals(e.getValue())).map(Map.Entry::getKey).toList();
    }

    /** Every child that was ever linked to {@code masterFlid} (in the plan or by a move). */
    List<String> everLinkedTo(String masterFlid, FlightPlan plan) {
        var linked = new ArrayList<>(plan.childrenOf(masterFlid).stream().map(PlannedFlight::flid).toList());
        childrenOf(masterFlid).stream().filter(c -> !linked.contains(c)).forEach(linked::add);
        return linked;
    }
}
