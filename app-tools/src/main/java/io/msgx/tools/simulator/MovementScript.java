package io.msgx.tools.simulator;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What an arrival's and a departure's day are written with: the day's random stream, the airport's resources (stands,
 * gates, belts, counters) and the plan corrections. Each kind of movement writes its own story ({@link #write}).
 */
abstract class MovementScript {

    final SplittableRandom random;
    final AirportResources resources;
    final PlanChanges planChanges;

    MovementScript(SplittableRandom random, String homeAirport) {
        this.random = random;
        this.resources = new AirportResources(random);
        this.planChanges = new PlanChanges(homeAirport, random);
    }

    /** The story's messages, in the order they are sent. */
    abstract List<FlopDraft> write(FlightStory story);
}
