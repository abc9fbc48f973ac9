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
 * The changes to a flight's plan that arrivals and departures share, sent hours ahead: planned stand, handling
 * agents, special services, VIPs, terminal, aircraft, seats, flight type and nature, route, remarks.
 */
final class PlanChanges {

    private final String homeAirport;
    private final SplittableRandom random;

    PlanChanges(String homeAirport, SplittableRandom random) {
        this.homeAirport = homeAirport;
        this.random = random;
    }

    /** Resources and people: {@code PSDT}, {@code HNAG}, {@code SRVT}, {@code VIPF}, one a minute from {@code from}. */
    void resources(FlightScript script, FlightStory story, LocalDateTime from) {
        var flight = story.flight();
        var t = flight.scheduled();
        var at = from;
        if (story.has(Twist.PLANNED_STAND)) {
            var arrival = flight.movement() == Movement.ARRIVAL;
            script.send(at, script.flop(FlopSubtype.PSDT).items(item(1, "PSST", flight.stand(),
                    "STST", arrival ? t.minusMinutes(10) : t.minusMinutes(70),
                    "STET", arrival ? t.plusMinutes(60) : t.plusMinutes(story.delayMinutes() + 5))),
                    "planned stand " + flight.stand());
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.HANDLING_AGENTS)) {
            var agents = Draws.choose(random, ReferenceTables.HANDLING_AGENTS, 3);
            script.send(at, script.flop(FlopSubtype.HNAG).set(FlightField.PHAG, agents.get(0))
                    .set(FlightField.FHAG, agents.get(1)).set(FlightField.MHAG, agents.get(2)), "handling agents " + agents);
            at = at.plusMinutes(1);
            loadFigures(script, flight, at);
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.SERVICES)) {
            var codes = Draws.choose(random, ReferenceTables.SERVICE_CODES, Draws.between(random, 1, 2));
            var items = new ArrayList<ListItem>();
            for (int i = 0; i < codes.size(); i++) {
                items.add(item(i + 1, "SRTC", codes.get(i), "SRQT", String.valueOf(Draws.between(random, 1, 3)),
                        "SRST", t.minusMinutes(40), "SRET", t.minusMinutes(20), "SRPR", "GROUND SERVICES"));
            }
            script.send(at, script.flop(FlopSubtype.SRVT).items(items), "special services " + codes);
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.VIP)) {
            var name = "MR " + ReferenceTables.pick(random, ReferenceTables.SURNAMES);
            script.send(at, script.flop(FlopSubtype.VIPF).items(item(1, "VPCD", name,
                    "VFES", ReferenceTables.pick(random, ReferenceTables.VIP_RANKS) + " VIP ROOM " + Draws.between(random, 1, 6))),
                    "VIP " + name);
            script.send(at.plusMinutes(1), script.flop(FlopSubtype.VIPP).set(FlightField.VIPP, "1")
                    .set(FlightField.VIPR, "0"), "VIP count");
            script.send(at.plusMinutes(2), script.flop(FlopSubtype.VIPR).set(FlightField.VIPR, "1"), "VIP room count");
        }
    }

    /**
     * What the handling agent reports of the load (sis-format v3 §10): the airline's subcompany ({@code ALSC}), the
     * passengers ({@code PAXC}), the local bags and their weight ({@code LBNO}, {@code LBWT}, a decimal). Derived from
     * the aircraft, so that the day's other draws stay as they were.
     */
    private static void loadFigures(FlightScript script, PlannedFlight flight, LocalDateTime at) {
        int passengers = flight.aircraft().seats() * 4 / 5;
        int bags = passengers * 9 / 10;
        script.send(at, script.flop(FlopSubtype.ALSC).set(FlightField.ALSC, flight.airline() + "1"), "subcompany");
        script.send(at, script.flop(FlopSubtype.PAXC).set(FlightField.PAXC, Integer.toString(passengers)),
                passengers + " passengers");
        script.send(at, script.flop(FlopSubtype.LBNO).set(FlightField.LBNO, Integer.toString(bags)), bags + " bags");
        script.send(at, script.flop(FlopSubtype.LBWT).set(FlightField.LBWT, bags * 31 / 2 + "." + (bags % 2) * 5),
                "bags' weight");
    }

    /**
     * Corrections to the plan: {@code TRML}, {@code ACFT}/{@code RENO}/{@code MAXP}, {@code MAXP}, {@code FLTY},
     * {@code FLIN}, {@code ROUT}/{@code ERUT}, one a minute from {@code from}.
     */
    void corrections(FlightScript script, FlightStory story, LocalDateTime from) {
        var flight = story.flight();
        var at = from;
        if (story.has(Twist.TERMINAL_CHANGE)) {
            var terminal = flight.terminal().equals("T1") ? "T2" : "T1";
            script.send(at, script.flop(FlopSubtype.TRML).set(FlightField.TRML, terminal), "moves to " + terminal);
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.AIRCRAFT_SWAP)) {
            var types = flight.aircraft().wideBody() ? ReferenceTables.WIDE_BODIES : ReferenceTables.NARROW_BODIES;
            var type = ReferenceTables.pick(random, types.stream().filter(a -> a != flight.aircraft()).toList());
            var registration = swappedRegistration(flight.registration());
            script.send(at, script.flop(FlopSubtype.ACFT).set(FlightField.ACFT, type.code()), "aircraft swap to " + type.code());
            script.send(at, script.flop(FlopSubtype.RENO).set(FlightField.RENO, registration), "now " + registration);
            script.send(at.plusMinutes(1), script.flop(FlopSubtype.MAXP).set(FlightField.MAXP, Integer.toString(type.seats())),
                    type.seats() + " seats");
            at = at.plusMinutes(2);
        } else if (story.has(Twist.CAPACITY_CHANGE)) {
            int seats = flight.aircraft().seats() - Draws.between(random, 2, 12);
            script.send(at, script.flop(FlopSubtype.MAXP).set(FlightField.MAXP, Integer.toString(seats)),
                    "seats blocked, " + seats + " left");
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.TYPE_CHANGE)) {
            var type = flight.flightType().equals("W") ? "C" : "W";
            script.send(at, script.flop(FlopSubtype.FLTY).set(FlightField.FLTY, type), "flight type now " + type);
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.NATURE_CHANGE)) {
            var nature = switch (flight.nature()) {
                case "D" -> "R";
                case "R" -> "I";
                default -> "R";
            };
            script.send(at, script.flop(FlopSubtype.FLIN).set(FlightField.FLIN, nature), "flight nature now " + nature);
            at = at.plusMinutes(1);
        }
        if (story.has(Twist.ROUTE_CHANGE)) {
            var route = changedRoute(flight);
            var what = route.size() > flight.route().size() ? "technical stop at " + technicalStop(route, flight)
                    : "via stop dropped";
            script.send(at, script.flop(FlopSubtype.ROUT).items(flight.routeItems(route)), what);
            script.send(at, script.flop(FlopSubtype.ERUT).items(flight.entireRouteItems(route, homeAirport)), what);
        }
    }

    /** A remark ({@code REMC}) and an exception status ({@code EXSS}: code {@code EXSC}, reason {@code EXSR}). */
    void remarks(FlightScript script, FlightStory story, LocalDateTime at) {
        var flight = story.flight();
        if (story.has(Twist.EXTERNAL_STATUS)) {
            var eta = flight.scheduled().plusMinutes(story.delayMinutes());
            var status = story.delayed() ? "DLY" : "ONT";
            var remark = (flight.movement() == Movement.DEPARTURE ? "DEPARTURE " : "ARRIVAL ")
                    + (story.delayed() ? "DELAYED TO " : "ON TIME AT ") + String.format("%02d:%02d", eta.getHour(), eta.getMinute());
            script.send(at, script.flop(FlopSubtype.EXSS).set(FlightField.EXSC, status).set(FlightField.EXSR, remark), remark);
        }
        if (story.has(Twist.REMARK)) {
            var remark = ReferenceTables.pick(random, ReferenceTables.REMARKS);
            script.send(at.plusMinutes(1), script.flop(FlopSubtype.REMC).set(FlightField.REMC, remark), remark);
        }
    }

    /** Cancelled: {@code CNCL} with the time of cancellation, status {@code CNL}, the public remark. */
    static void cancel(FlightScript script, LocalDateTime at) {
        script.send(at, script.flop(FlopSubtype.CNCL).time(FlightField.CNCL, at), "cancelled");
        script.send(at, script.flop(FlopSubtype.FTSS).set(FlightField.FTSS, "CNL"), "status cancelled");
        script.send(at.plusMinutes(1), script.flop(FlopSubtype.EXSS).set(FlightField.EXSC, "CNL")
                .set(FlightField.EXSR, "FLIGHT CANCELLED"), "public status cancelled");
    }

    /** A technical stop added to a non-stop route, or the via stop of a two-leg route dropped. */
    private List<RoutePoint> changedRoute(PlannedFlight flight) {
        var points = flight.route();
        var departure = flight.movement() == Movement.DEPARTURE;
        if (points.size() > 1) {
            var far = departure ? points.get(points.size() - 1) : points.get(0);
            return departure
                    ? List.of(new RoutePoint(far.airport(), far.scheduledArrival().minusMinutes(40), null))
                    : List.of(new RoutePoint(far.airport(), null, far.scheduledDeparture().plusMinutes(40)));
        }
        var far = points.get(0);
        var stop = ReferenceTables.pick(random, ReferenceTables.DOMESTIC.stream()
                .filter(a -> !a.code().equals(far.airport()) && !a.code().equals(homeAirport)).toList());
        int half = Math.max(40, flight.legMinutes() / 2);
        if (departure) {
            var atStop = flight.scheduled().plusMinutes(half);
            return List.of(new RoutePoint(stop.code(), atStop, atStop.plusMinutes(45)),
                    new RoutePoint(far.airport(), far.scheduledArrival().plusMinutes(65), null));
        }
        var fromStop = flight.scheduled().minusMinutes(half);
        return List.of(new RoutePoint(far.airport(), null, far.scheduledDeparture().minusMinutes(65)),
                new RoutePoint(stop.code(), fromStop.minusMinutes(45), fromStop));
    }

    private static String technicalStop(List<RoutePoint> route, PlannedFlight flight) {
        return route.get(flight.movement() == Movement.DEPARTURE ? 0 : 1).airport();
    }

    private String swappedRegistration(String registration) {
        var tail = new StringBuilder(registration);
        int last = tail.length() - 1;
        char c = tail.charAt(last);
        tail.setCharAt(last, Character.isDigit(c) ? (char) ('0' + (c - '0' + 1 + random.nextInt(8)) % 10)
                : (char) ('A' + (c - 'A' + 1 + random.nextInt(24)) % 26));
        return tail.toString();
    }
}
