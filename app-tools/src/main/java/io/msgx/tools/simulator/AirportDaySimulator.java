package io.msgx.tools.simulator;

import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlopSubtype;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Simulates a day of AODB traffic into the mailbox, deterministically: the same {@link SimulationSettings} give
 * the same messages byte for byte (one seeded {@link SplittableRandom}, never the clock).
 *
 * <p>The day, in the order the AODB sends it:
 * <ol>
 *   <li>the reference tables the day draws from as {@code DNLD}s from 00:05 (gates, stands, airbridges, counters,
 *       belts, chutes, airlines, airports, aircraft types, delay codes), and a few changes during the day
 *       ({@code UPD}, {@code ADD}, {@code DEL}): {@link ReferenceTraffic};</li>
 *   <li>the daily plan as {@code SCHD DNLD} packages from 00:30 (every operated flight except the added ones, each
 *       code-share master followed by its children);</li>
 *   <li>each flight's operations ({@code FLOP}) on one timeline, interleaved by the time they happen: check-in,
 *       gates, boarding, calls, airbridge, chocks, take-off and landing, belts, delays, estimates, stand and gate
 *       changes, statuses, the occasional cancellation, diversion, return or rejected take-off; every subtype of
 *       sis-format §5 at least once in a day of some size;</li>
 *   <li>a few flights added mid-day ({@code SCHD ADFT}), some {@code CSHR} on code-share children;</li>
 *   <li>a few deletions between 22:00 and 23:30 ({@code FDEL}: a master with its children, a child, plain flights);</li>
 *   <li>spread over the day: messages of ignored types, broken messages, and earlier messages sent again
 *       (the exact XML, same {@code SEQN}) a little later.</li>
 * </ol>
 * {@code SEQN} counts up from {@link SimulationSettings#firstSequence()} in sending order; {@code DTTM} is the
 * sending time; the sender is {@code AODB}.
 */
public final class AirportDaySimulator {

    private static final LocalTime EARLIEST_ADDITION = LocalTime.of(7, 0);

    private final AodbMessageWriter writer = new AodbMessageWriter();

    public AirportDay generate(SimulationSettings settings) {
        var random = new SplittableRandom(settings.seed());
        var plan = new FlightPlanner(settings, random.split()).plan();
        var stories = new StoryPlanner(random.split()).stories(plan);
        var timeline = new Timeline();
        new ReferenceTraffic(settings.operationDay()).send(timeline);

        var floor = new SchedulePackager(settings).send(plan, timeline).plusMinutes(1);
        var takeOffs = sendOperations(settings, stories, timeline, floor, random);
        var codeShares = new CodeShareChanges(random.split(), plan);
        codeShares.send(plan, timeline, floor);
        var deletions = new DeletionPlanner(settings, random.split());
        deletions.send(plan, codeShares, timeline);

        int flightMessages = timeline.count(SimulatedMessage.Kind.SCHEDULE, SimulatedMessage.Kind.ADFT,
                SimulatedMessage.Kind.FLOP, SimulatedMessage.Kind.FDEL);
        var background = new BackgroundTraffic(settings, random.split());
        background.sendIgnored(plan, takeOffs, timeline, Draws.quota(settings.mix().ignored(), flightMessages));
        background.sendMalformed(plan, timeline, Draws.quota(settings.mix().malformed(), flightMessages));

        var sent = new ArrayList<SimulatedMessage>();
        long sequence = settings.firstSequence();
        for (var entry : timeline.chronological()) {
            sent.add(new SimulatedMessage(writer.write(entry.draft(), sequence++, entry.at()), entry.kind(), entry.flid(),
                    entry.description(), entry.at()));
        }
        var messages = new DuplicateSender(random.split())
                .sendAgain(sent, Draws.quota(settings.mix().duplicates(), flightMessages));
        return new AirportDay(settings, messages, expectations(plan, timeline, messages, deletions));
    }

    /**
     * Every operated flight's operations on the timeline (after its ADFT for an added flight), never before the
     * plan; returns the departures' take-offs.
     */
    private static List<BackgroundTraffic.TakeOff> sendOperations(SimulationSettings settings, List<FlightStory> stories,
                                                                  Timeline timeline, LocalDateTime floor,
                                                                  SplittableRandom random) {
        var additions = random.split();
        var departures = new DepartureScript(random.split(), settings.homeAirport());
        var arrivals = new ArrivalScript(random.split(), settings.homeAirport());
        var takeOffs = new ArrayList<BackgroundTraffic.TakeOff>();
        for (var story : stories) {
            var flight = story.flight();
            var previous = floor;
            if (flight.added()) {
                var at = flight.scheduled().minusMinutes(Draws.between(additions, 120, 300)).withSecond(additions.nextInt(60));
                var earliest = settings.operationDay().atTime(EARLIEST_ADDITION);
                at = at.isBefore(earliest) ? earliest.withSecond(additions.nextInt(60)) : at;
                timeline.add(at, SimulatedMessage.Kind.ADFT, flight.flid(), flight.flightNumber() + " ADFT: added to the day",
                        SchedulePackager.adft(flight, settings.homeAirport()));
                previous = at.plusMinutes(1);
            }
            var drafts = flight.movement() == Movement.DEPARTURE ? departures.write(story) : arrivals.write(story);
            for (var draft : drafts) {
                var at = draft.at().isBefore(previous) ? previous : draft.at();
                previous = at;
                var subtype = draft.operation().subtype();
                timeline.add(at, SimulatedMessage.Kind.FLOP, flight.flid(), draft.description(),
                        new MessageDraft.Flight("FLOP", subtype.name(), draft.operation()));
                if (subtype == FlopSubtype.ACTT && flight.movement() == Movement.DEPARTURE) {
                    takeOffs.add(new BackgroundTraffic.TakeOff(flight.flid(), at));
                }
            }
        }
        return takeOffs;
    }

    private static DayExpectations expectations(FlightPlan plan, Timeline timeline, List<SimulatedMessage> messages,
                                                DeletionPlanner deletions) {
        var subtypes = EnumSet.noneOf(FlopSubtype.class);
        timeline.entries().stream()
                .filter(e -> e.kind() == SimulatedMessage.Kind.FLOP)
                .forEach(e -> subtypes.add(((FlightOperation) ((MessageDraft.Flight) e.draft()).message()).subtype()));
        var byKind = new EnumMap<SimulatedMessage.Kind, Integer>(SimulatedMessage.Kind.class);
        messages.forEach(m -> byKind.merge(m.kind(), 1, Integer::sum));
        var scheduled = new HashSet<>(plan.flights().stream().map(PlannedFlight::flid).toList());
        return new DayExpectations(scheduled, byKind, deletions.deleted(), subtypes);
    }
}
