package io.msgx.tools.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Decides how each operated flight's day goes: a quarter are delayed (10 minutes to two hours, more often
 * short), a late inbound aircraft delays its turnaround departure (code 93), a few flights are cancelled,
 * diverted, returned or have a rejected take-off (never a code-share master nor a turnaround), and the
 * {@link Twist}s are dealt to regular flights by their shares.
 */
final class StoryPlanner {

    private static final int MINIMUM_TURN_MINUTES = 40;

    private final SplittableRandom random;

    StoryPlanner(SplittableRandom random) {
        this.random = random;
    }

    /** A story for every operated flight of the plan, in plan order. */
    List<FlightStory> stories(FlightPlan plan) {
        var operated = plan.operated();
        var delays = new LinkedHashMap<String, Integer>();
        var reasons = new LinkedHashMap<String, ReferenceTables.DelayReason>();
        for (var flight : operated) {
            if (Draws.chance(random, 0.25)) {
                double r = random.nextDouble();
                delays.put(flight.flid(), 10 + (int) Math.round(r * r * 110));
                reasons.put(flight.flid(), ReferenceTables.pick(random, ReferenceTables.DELAY_REASONS));
            } else {
                delays.put(flight.flid(), 0);
            }
        }
        var byFlid = plan.byFlid();
        for (var departure : operated) {
            if (departure.turnaround() == null) {
                continue;
            }
            var arrival = byFlid.get(departure.turnaround().flid());
            var ready = arrival.scheduled().plusMinutes(delays.get(arrival.flid()) + MINIMUM_TURN_MINUTES);
            long late = Duration.between(departure.scheduled(), ready).toMinutes();
            if (late > delays.get(departure.flid())) {
                delays.put(departure.flid(), (int) late);
                reasons.put(departure.flid(), ReferenceTables.DELAY_REASONS.get(0));
            }
        }

        var irregular = new LinkedHashMap<String, Irregularity>();
        var eligible = operated.stream()
                .filter(f -> f.turnaround() == null && !plan.isMaster(f.flid()))
                .filter(f -> operated.stream().noneMatch(d -> d.turnaround() != null && d.turnaround().flid().equals(f.flid())))
                .toList();
        for (var irregularity : Irregularity.values()) {
            if (irregularity == Irregularity.NONE) {
                continue;
            }
            var candidates = eligible.stream()
                    .filter(f -> irregularity.fits(f.movement()) && !irregular.containsKey(f.flid())).toList();
            int count = Math.min(candidates.size(), Draws.quota(irregularity.share(), operated.size()));
            Draws.choose(random, candidates, count).forEach(f -> irregular.put(f.flid(), irregularity));
        }

        var twists = new EnumMap<Twist, Set<String>>(Twist.class);
        var regular = operated.stream().filter(f -> !irregular.containsKey(f.flid())).toList();
        for (var twist : Twist.values()) {
            var candidates = regular.stream().filter(f -> twist.fits(f.movement())).toList();
            var chosen = Draws.choose(random, candidates, Draws.quota(twist.share(), candidates.size()));
            twists.put(twist, new HashSet<>(chosen.stream().map(PlannedFlight::flid).toList()));
        }

        var stories = new ArrayList<FlightStory>();
        for (var flight : operated) {
            var mine = EnumSet.noneOf(Twist.class);
            twists.forEach((twist, flids) -> {
                if (flids.contains(flight.flid())) {
                    mine.add(twist);
                }
            });
            stories.add(new FlightStory(flight, delays.get(flight.flid()), reasons.get(flight.flid()),
                    irregular.getOrDefault(flight.flid(), Irregularity.NONE), mine));
        }
        return stories;
    }

    /** The stories by FLID. */
    static Map<String, FlightStory> byFlid(List<FlightStory> stories) {
        var map = new LinkedHashMap<String, FlightStory>();
        stories.forEach(s -> map.put(s.flight().flid(), s));
        return map;
    }
}
