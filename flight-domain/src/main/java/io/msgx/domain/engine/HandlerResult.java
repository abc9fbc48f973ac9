package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a message handler returns to the engine: proposed next contents, or a final no-op or rejection. */
sealed interface HandlerResult {

    /**
     * The next content of every flight the handler touched, versions not yet advanced: the engine compares
     * each with the snapshot, adds the masters whose {@code MAFL} moved, and versions what really changed.
     */
    record Proposed(Map<FlightId, FlightState> next) implements HandlerResult {
        public Proposed {
            next = Collections.unmodifiableMap(new LinkedHashMap<>(next));
        }
    }

    /** The handler's answer is final: a no-op or a rejection. */
    record Final(Decision decision) implements HandlerResult {
    }

    static HandlerResult rejected(String reason) {
        return new Final(new Decision.Rejected(reason));
    }

    static HandlerResult noChange(Decision.NoChangeReason reason, String detail) {
        return new Final(new Decision.NoChange(reason, detail));
    }
}
