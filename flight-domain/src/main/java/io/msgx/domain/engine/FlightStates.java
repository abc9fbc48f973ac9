package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;

/** How a flight the store has never seen starts: ACTIVE, version 1, nothing carried, no operation day. */
final class FlightStates {

    private FlightStates() {
    }

    static FlightState newFlight(FlightId flid, long msgId) {
        return new FlightState(flid, FlightStatus.ACTIVE, 1, null, msgId, FlightFields.empty(), FlightLists.empty());
    }
}
