package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.SisTime;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * One flight of the simulated plan as the AODB knows it in the morning.
 *
 * @param route        the other airports in travel order (the home airport is not in it)
 * @param legMinutes   block time of the leg touching the home airport (to the next station for a departure, from
 *                     the previous one for an arrival)
 * @param codeShare    the link to the operating (master) flight; null for an operated flight
 * @param turnaround   the arrival whose aircraft this departure flies; null when none
 * @param added        true when the flight comes as {@code SCHD ADFT} mid-day rather than in the plan
 */
record PlannedFlight(String flid, String airline, String flightNumber, Movement movement, LocalDateTime scheduled,
                     String flightType, String nature, ReferenceTables.AircraftType aircraft, String registration,
                     String terminal, String stand, List<RoutePoint> route, int legMinutes, CodeShare codeShare,
                     Turnaround turnaround, boolean added) {

    /** A code-share child's link: its master's FLID, and its own carrier and flight number ({@code CSOP}/{@code CSFT}). */
    record CodeShare(String masterFlid, String operator, String flight) {
    }

    /** The arrival a departure turns around from ({@code TAOP}, {@code TAFL}, {@code TAID}). */
    record Turnaround(String airline, String flightNumber, String flid) {
    }

    PlannedFlight {
        route = List.copyOf(route);
    }

    boolean isChild() {
        return codeShare != null;
    }

    /** The display id {@code ALCD-FLNO-MVIN-SODT-FLIN}. */
    String ffid() {
        return airline + "-" + flightNumber + "-" + movement.code() + "-" + SisTime.format(scheduled) + "-" + nature;
    }

    /** A contact stand has an airbridge; remote stands are served by bus. */
    boolean atContactStand() {
        return stand.startsWith("5");
    }

    /** The {@code ROUT} items. */
    List<ListItem> routeItems(List<RoutePoint> points) {
        var items = new ArrayList<ListItem>();
        for (int i = 0; i < points.size(); i++) {
            items.add(points.get(i).asItem(i + 1));
        }
        return items;
    }

    /** The {@code ERUT} items: the route with the home airport at its start (departure) or end (arrival). */
    List<ListItem> entireRouteItems(List<RoutePoint> points, String homeAirport) {
        var all = new ArrayList<RoutePoint>();
        var home = movement == Movement.DEPARTURE
                ? new RoutePoint(homeAirport, null, scheduled)
                : new RoutePoint(homeAirport, scheduled, null);
        if (movement == Movement.DEPARTURE) {
            all.add(home);
        }
        all.addAll(points);
        if (movement == Movement.ARRIVAL) {
            all.add(home);
        }
        var items = new ArrayList<ListItem>();
        for (int i = 0; i < all.size(); i++) {
            items.add(all.get(i).asItem(i + 1));
        }
        return items;
    }

    /** The flight's {@code FLTR}: what a schedule package (or an ADFT) says about it. */
    FlightRecord scheduleRecord(String homeAirport) {
        var patch = FlightPatch.empty()
                .with(FlightField.FFID, FieldChange.of(ffid()))
                .with(FlightField.ALCD, FieldChange.of(airline))
                .with(FlightField.FLNO, FieldChange.of(flightNumber))
                .with(FlightField.MVIN, FieldChange.of(movement.code()))
                .with(FlightField.SODT, FieldChange.of(SisTime.format(scheduled)))
                .with(FlightField.FLTY, FieldChange.of(flightType))
                .with(FlightField.FLIN, FieldChange.of(nature))
                .with(FlightField.ACFT, FieldChange.of(aircraft.code()))
                .with(FlightField.RENO, FieldChange.of(registration))
                .with(FlightField.TRML, FieldChange.of(terminal))
                .with(FlightField.STND, FieldChange.of(stand))
                .with(FlightField.FTSS, FieldChange.of("SCH"))
                .with(FlightList.ROUT, routeItems(route))
                .with(FlightList.ERUT, entireRouteItems(route, homeAirport));
        if (codeShare == null) {
            patch = patch.with(FlightField.MAXP, FieldChange.of(Integer.toString(aircraft.seats())));
        } else {
            patch = patch.with(FlightField.CSOP, FieldChange.of(codeShare.operator()))
                    .with(FlightField.CSFT, FieldChange.of(codeShare.flight()))
                    .with(FlightField.MAID, FieldChange.of(codeShare.masterFlid()));
        }
        return new FlightRecord(flid, patch);
    }
}
