package io.msgx.tools.simulator;

import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The daily plan as {@code SCHD DNLD} packages, sent from 00:30 fifteen seconds apart: the planned flights by
 * scheduled time, each master followed by its children, at most {@code packageSize} records a package and never a
 * code-share group split; {@code RECS} is the record count.
 */
final class SchedulePackager {

    static final LocalTime FIRST_PACKAGE = LocalTime.of(0, 30);

    private final SimulationSettings settings;

    SchedulePackager(SimulationSettings settings) {
        this.settings = settings;
    }

    /** Puts the packages on the timeline; returns when the last one is sent. */
    LocalDateTime send(FlightPlan plan, Timeline timeline) {
        var groups = new ArrayList<List<PlannedFlight>>();
        plan.operated().stream()
                .filter(f -> !f.added())
                .sorted(Comparator.comparing(PlannedFlight::scheduled).thenComparing(f -> Long.parseLong(f.flid())))
                .forEach(f -> {
                    var group = new ArrayList<PlannedFlight>();
                    group.add(f);
                    group.addAll(plan.childrenOf(f.flid()));
                    groups.add(group);
                });
        var packages = new ArrayList<List<PlannedFlight>>();
        var current = new ArrayList<PlannedFlight>();
        for (var group : groups) {
            if (!current.isEmpty() && current.size() + group.size() > settings.packageSize()) {
                packages.add(current);
                current = new ArrayList<>();
            }
            current.addAll(group);
        }
        if (!current.isEmpty()) {
            packages.add(current);
        }
        var at = settings.operationDay().atTime(FIRST_PACKAGE);
        for (int i = 0; i < packages.size(); i++) {
            at = settings.operationDay().atTime(FIRST_PACKAGE).plusSeconds(15L * i);
            var records = packages.get(i).stream().map(f -> f.scheduleRecord(settings.homeAirport())).toList();
            timeline.add(at, SimulatedMessage.Kind.SCHEDULE, null,
                    "daily plan package " + (i + 1) + "/" + packages.size() + ": " + records.size() + " flights",
                    new MessageDraft.Flight("SCHD", "DNLD", new ScheduleMessage(ScheduleKind.DNLD, records.size(), records)));
        }
        return at;
    }

    /** One flight added mid-day: a {@code SCHD ADFT} with one record. */
    static MessageDraft adft(PlannedFlight flight, String homeAirport) {
        FlightRecord record = flight.scheduleRecord(homeAirport);
        return new MessageDraft.Flight("SCHD", "ADFT", new ScheduleMessage(ScheduleKind.ADFT, 1, List.of(record)));
    }
}
