package io.msgx.tools.simulator;

import java.util.EnumSet;
import java.util.Set;

/**
 * How an operated flight's day goes: its delay (minutes, with the IATA reason; zero and null when on time), what
 * goes wrong, and the twists it gets.
 */
record FlightStory(PlannedFlight flight, int delayMinutes, ReferenceTables.DelayReason delayReason,
                   Irregularity irregularity, Set<Twist> twists) {

    FlightStory {
        twists = twists.isEmpty() ? EnumSet.noneOf(Twist.class) : EnumSet.copyOf(twists);
    }

    boolean has(Twist twist) {
        return twists.contains(twist);
    }

    boolean delayed() {
        return delayMinutes > 0;
    }
}
