package io.msgx.tools.simulator;

import io.msgx.domain.message.FlightDeletion;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The deletions near the end of the day ({@code FLOP FDEL}, 22:00–23:30, and always after the last message about
 * the flight and its code-share children): at least one master, preferably one with children still linked (they
 * are deleted with it), a child when there are two or more deletions, then plain flights. Flights whose day is
 * over by 21:30 are preferred. Knows which FLIDs end {@code DELETED}.
 */
final class DeletionPlanner {

    private static final LocalTime FROM = LocalTime.of(22, 0);
    private static final LocalTime PREFERRED_DONE_BY = LocalTime.of(21, 30);

    private final SimulationSettings settings;
    private final SplittableRandom random;
    private final Set<String> deleted = new LinkedHashSet<>();

    DeletionPlanner(SimulationSettings settings, SplittableRandom random) {
        this.settings = settings;
        this.random = random;
    }

    void send(FlightPlan plan, CodeShareChanges codeShares, Timeline timeline) {
        int count = Draws.quota(settings.mix().deletions(), plan.operated().size());
        var chosen = new ArrayList<PlannedFlight>();
        var masters = plan.operated().stream().filter(f -> plan.isMaster(f.flid())).toList();
        var mastersWithChildren = masters.stream().filter(m -> !codeShares.childrenOf(m.flid()).isEmpty()).toList();
        if (count > 0 && !masters.isEmpty()) {
            chosen.add(pickPreferred(mastersWithChildren.isEmpty() ? masters : mastersWithChildren, plan, codeShares,
                    timeline));
        }
        var takenWith = new LinkedHashSet<String>();
        chosen.forEach(m -> takenWith.addAll(codeShares.everLinkedTo(m.flid(), plan)));
        var children = plan.children().stream().filter(c -> !takenWith.contains(c.flid())).toList();
        if (count > 1 && !children.isEmpty()) {
            chosen.add(pickPreferred(children, plan, codeShares, timeline));
        }
        var plain = plan.operated().stream().filter(f -> !plan.isMaster(f.flid()) && !chosen.contains(f)).toList();
        while (chosen.size() < count) {
            var left = plain.stream().filter(f -> !chosen.contains(f)).toList();
            if (left.isEmpty()) {
                break;
            }
            chosen.add(pickPreferred(left, plan, codeShares, timeline));
        }

        for (var flight : chosen) {
            var at = settings.operationDay().atTime(FROM).plusMinutes(random.nextInt(91)).plusSeconds(random.nextInt(60));
            var last = lastOfGroup(flight, plan, codeShares, timeline);
            if (last != null && !at.isAfter(last.plusMinutes(5))) {
                at = last.plusMinutes(5 + random.nextInt(10));
            }
            var what = flight.flightNumber() + " FDEL: deleted";
            deleted.add(flight.flid());
            if (plan.isMaster(flight.flid())) {
                var linked = codeShares.childrenOf(flight.flid());
                deleted.addAll(linked);
                what += linked.isEmpty() ? " (master, no child left)" : " with its code-share children " + linked;
            }
            timeline.add(at, SimulatedMessage.Kind.FDEL, flight.flid(), what,
                    new MessageDraft.Flight("FLOP", "FDEL", new FlightDeletion(flight.flid())));
        }
    }

    /** The FLIDs that end {@code DELETED}. */
    Set<String> deleted() {
        return Set.copyOf(deleted);
    }

    private PlannedFlight pickPreferred(List<PlannedFlight> from, FlightPlan plan, CodeShareChanges codeShares,
                                        Timeline timeline) {
        var doneBy = settings.operationDay().atTime(PREFERRED_DONE_BY);
        var early = from.stream().filter(f -> {
            var last = lastOfGroup(f, plan, codeShares, timeline);
            return last == null || last.isBefore(doneBy);
        }).toList();
        return ReferenceTables.pick(random, early.isEmpty() ? from : early);
    }

    private static LocalDateTime lastOfGroup(PlannedFlight flight, FlightPlan plan, CodeShareChanges codeShares,
                                             Timeline timeline) {
        var flids = new ArrayList<String>();
        flids.add(flight.flid());
        if (plan.isMaster(flight.flid())) {
            flids.addAll(codeShares.everLinkedTo(flight.flid(), plan));
        }
        return flids.stream().map(timeline::lastAbout).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
    }
}
