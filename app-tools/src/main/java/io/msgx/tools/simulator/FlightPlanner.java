package io.msgx.tools.simulator;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Plans the flights of a day: {@code N} operated flights (scheduled 06:00–23:30, arrivals and departures by the
 * mix), turnarounds pairing an arrival with a later departure of the same airline on the same aircraft, the
 * flights added mid-day, and the code-share children (one or two per master, of other airlines). FLIDs are numbers
 * unique to the operation day (a hundred thousand per day), so days fed one after another never share a FLID.
 */
final class FlightPlanner {

    private static final LocalTime FIRST_SLOT = LocalTime.of(6, 0);
    private static final int SLOTS = 211; // five-minute slots from 06:00 to 23:30
    private static final LocalTime EARLIEST_ADDED = LocalTime.of(11, 0);

    private final SimulationSettings settings;
    private final SplittableRandom random;
    private final Set<String> flightNumbers = new HashSet<>();
    private final Set<String> registrations = new HashSet<>();

    FlightPlanner(SimulationSettings settings, SplittableRandom random) {
        this.settings = settings;
        this.random = random;
    }

    /** An operated flight while it is being planned. */
    private static final class Draft {
        long flid;
        ReferenceTables.Airline airline;
        String flightNumber;
        Movement movement;
        LocalDateTime scheduled;
        String flightType;
        String nature;
        ReferenceTables.AircraftType aircraft;
        String registration;
        String terminal;
        String stand;
        List<RoutePoint> route;
        int legMinutes;
        PlannedFlight.Turnaround turnaround;
        boolean pairedArrival;
        boolean added;

        PlannedFlight freeze(PlannedFlight.CodeShare codeShare) {
            return new PlannedFlight(Long.toString(flid), airline.code(), flightNumber, movement, scheduled, flightType,
                    nature, aircraft, registration, terminal, stand, route, legMinutes, codeShare, turnaround, added);
        }
    }

    FlightPlan plan() {
        long firstFlid = Math.floorMod(settings.operationDay().toEpochDay(), 10_000L) * 100_000L + 1;
        var drafts = new ArrayList<Draft>();
        for (int i = 0; i < settings.flights(); i++) {
            drafts.add(operated(firstFlid + i));
        }
        pairTurnarounds(drafts);
        markAdded(drafts);
        var flights = new ArrayList<PlannedFlight>();
        drafts.forEach(d -> flights.add(d.freeze(null)));
        long nextFlid = firstFlid + drafts.size();
        var candidates = drafts.stream().filter(d -> !d.added && d.flightType.equals("W")).toList();
        var masters = new ArrayList<>(Draws.choose(random, candidates,
                Math.min(candidates.size(), Draws.quota(settings.mix().codeShareMasters(), drafts.size()))));
        masters.sort(Comparator.comparingLong(d -> d.flid));
        for (var master : masters) {
            int children = Draws.chance(random, 0.6) ? 1 : 2;
            var airlines = Draws.choose(random, ReferenceTables.AIRLINES.stream()
                    .filter(a -> !a.code().equals(master.airline.code()) && a.homeCarrier() == master.airline.homeCarrier())
                    .toList(), children);
            for (var airline : airlines) {
                String number = flightNumber(airline, 5000, 8999);
                var codeShare = new PlannedFlight.CodeShare(Long.toString(master.flid), airline.code(), number);
                var child = master.freeze(codeShare);
                flights.add(new PlannedFlight(Long.toString(nextFlid++), airline.code(), number, child.movement(),
                        child.scheduled(), child.flightType(), child.nature(), child.aircraft(), child.registration(),
                        child.terminal(), child.stand(), child.route(), child.legMinutes(), codeShare, null, false));
            }
        }
        return new FlightPlan(flights);
    }

    private Draft operated(long flid) {
        var d = new Draft();
        d.flid = flid;
        d.movement = Draws.chance(random, settings.mix().arrivals()) ? Movement.ARRIVAL : Movement.DEPARTURE;
        d.scheduled = settings.operationDay().atTime(FIRST_SLOT).plusMinutes(5L * random.nextInt(SLOTS));
        boolean homeCarrier = Draws.chance(random, 0.8);
        d.airline = ReferenceTables.pick(random,
                ReferenceTables.AIRLINES.stream().filter(a -> a.homeCarrier() == homeCarrier).toList());
        boolean domestic = homeCarrier && Draws.chance(random, 0.8);
        var airport = ReferenceTables.pick(random, domestic ? ReferenceTables.DOMESTIC : ReferenceTables.ABROAD);
        d.nature = airport.nature();
        d.flightType = Draws.chance(random, 0.05) ? "C" : "W";
        d.aircraft = aircraftFor(airport);
        d.registration = registration(d.airline);
        d.terminal = domestic && Draws.chance(random, 0.8) ? "T1" : "T2";
        d.stand = Draws.chance(random, 0.65)
                ? Integer.toString(Draws.between(random, 501, 540))
                : Integer.toString(Draws.between(random, 601, 660));
        d.flightNumber = flightNumber(d.airline, domestic ? 1001 : 101, domestic ? 4999 : 999);
        d.legMinutes = airport.blockMinutes();
        var via = domestic && Draws.chance(random, 0.08)
                ? ReferenceTables.pick(random, ReferenceTables.DOMESTIC.stream().filter(a -> a != airport).toList())
                : null;
        d.route = route(d.movement, d.scheduled, airport, via);
        if (via != null) {
            d.legMinutes = via.blockMinutes();
        }
        return d;
    }

    /** The other airports in travel order; a via stop keeps the aircraft 50 minutes on the ground. */
    private static List<RoutePoint> route(Movement movement, LocalDateTime scheduled,
                                          ReferenceTables.Airport end, ReferenceTables.Airport via) {
        if (movement == Movement.DEPARTURE) {
            if (via == null) {
                return List.of(new RoutePoint(end.code(), scheduled.plusMinutes(end.blockMinutes()), null));
            }
            var atVia = scheduled.plusMinutes(via.blockMinutes());
            int second = Math.max(60, end.blockMinutes() - via.blockMinutes() / 2);
            return List.of(new RoutePoint(via.code(), atVia, atVia.plusMinutes(50)),
                    new RoutePoint(end.code(), atVia.plusMinutes(50 + second), null));
        }
        if (via == null) {
            return List.of(new RoutePoint(end.code(), null, scheduled.minusMinutes(end.blockMinutes())));
        }
        var fromVia = scheduled.minusMinutes(via.blockMinutes());
        int first = Math.max(60, end.blockMinutes() - via.blockMinutes() / 2);
        return List.of(new RoutePoint(end.code(), null, fromVia.minusMinutes(50 + first)),
                new RoutePoint(via.code(), fromVia.minusMinutes(50), fromVia));
    }

    private ReferenceTables.AircraftType aircraftFor(ReferenceTables.Airport airport) {
        boolean wide = airport.blockMinutes() > 300 || airport.nature().equals("I") && Draws.chance(random, 0.4)
                || airport.nature().equals("D") && Draws.chance(random, 0.08);
        return ReferenceTables.pick(random, wide ? ReferenceTables.WIDE_BODIES : ReferenceTables.NARROW_BODIES);
    }

    private String flightNumber(ReferenceTables.Airline airline, int low, int high) {
        while (true) {
            String number = airline.code() + Draws.between(random, low, high);
            if (flightNumbers.add(number)) {
                return number;
            }
        }
    }

    private String registration(ReferenceTables.Airline airline) {
        while (true) {
            String prefix = airline.registrationPrefix();
            String tail = switch (prefix) {
                case "B", "HL" -> Integer.toString(Draws.between(random, 1000, 9999));
                case "JA" -> Draws.between(random, 100, 999) + letters(1);
                case "B-H", "G-" -> letters(prefix.equals("G-") ? 4 : 2);
                default -> letters(3);
            };
            String registration = prefix + tail;
            if (registrations.add(registration)) {
                return registration;
            }
        }
    }

    private String letters(int count) {
        var text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append((char) ('A' + random.nextInt(26)));
        }
        return text.toString();
    }

    /**
     * About half the departures fly the aircraft of an earlier arrival of their airline (50 minutes to four
     * hours before): same type, registration and stand. At least one pair when the day allows any.
     */
    private void pairTurnarounds(List<Draft> drafts) {
        var departures = drafts.stream().filter(d -> d.movement == Movement.DEPARTURE)
                .sorted(Comparator.comparing((Draft d) -> d.scheduled).thenComparingLong(d -> d.flid)).toList();
        boolean any = false;
        for (var departure : departures) {
            if (!Draws.chance(random, 0.5)) {
                continue;
            }
            var arrival = inbound(drafts, departure, true);
            if (arrival != null) {
                pair(arrival, departure);
                any = true;
            }
        }
        if (!any) {
            for (var departure : departures) {
                var arrival = inbound(drafts, departure, false);
                if (arrival != null) {
                    pair(arrival, departure);
                    return;
                }
            }
        }
    }

    private static Draft inbound(List<Draft> drafts, Draft departure, boolean sameAirline) {
        return drafts.stream()
                .filter(a -> a.movement == Movement.ARRIVAL && !a.pairedArrival)
                .filter(a -> !sameAirline || a.airline.equals(departure.airline))
                .filter(a -> !a.scheduled.isAfter(departure.scheduled.minusMinutes(50))
                        && !a.scheduled.isBefore(departure.scheduled.minusMinutes(240)))
                .max(Comparator.comparing((Draft a) -> a.scheduled).thenComparingLong(a -> -a.flid))
                .orElse(null);
    }

    private static void pair(Draft arrival, Draft departure) {
        arrival.pairedArrival = true;
        departure.aircraft = arrival.aircraft;
        departure.registration = arrival.registration;
        departure.stand = arrival.stand;
        departure.turnaround = new PlannedFlight.Turnaround(arrival.airline.code(), arrival.flightNumber,
                Long.toString(arrival.flid));
    }

    /**
     * The flights that come as ADFT: not in a turnaround, scheduled from 11:00 when the day has such flights; never
     * every flight, so there is always a plan.
     */
    private void markAdded(List<Draft> drafts) {
        int count = Math.min(drafts.size() - 1, Draws.quota(settings.mix().addedFlights(), drafts.size()));
        var free = drafts.stream().filter(d -> d.turnaround == null && !d.pairedArrival).toList();
        var late = free.stream().filter(d -> !d.scheduled.toLocalTime().isBefore(EARLIEST_ADDED)).toList();
        var chosen = new ArrayList<>(Draws.choose(random, late, count));
        if (chosen.size() < count) {
            var rest = free.stream().filter(d -> !chosen.contains(d)).toList();
            chosen.addAll(Draws.choose(random, rest, count - chosen.size()));
        }
        chosen.forEach(d -> d.added = true);
    }
}
