package io.msgx.pipeline.record;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;

import java.util.Objects;

/**
 * What tells one stored state of a flight from another without reading it whole: its {@code STATE_VERSION} and the
 * message that wrote it ({@code LAST_MSG_ID}). Every write of a flight raises its version (the engine's versions only
 * go up), so a state known with the same stamp is the stored state; the message ID also tells apart a flight deleted
 * by the lifecycle and created again, or a database restored and written again, should either reach the same version.
 */
public record FlightStamp(FlightId flid, long stateVersion, long lastMsgId) {

    public FlightStamp {
        Objects.requireNonNull(flid, "flid");
    }

    /** The stamp of a full state. */
    public static FlightStamp of(FlightState state) {
        return new FlightStamp(state.flid(), state.stateVersion(), state.lastMsgId());
    }

    /** Whether {@code state} is the state this stamp was read from. */
    public boolean matches(FlightState state) {
        return state.flid().equals(flid) && state.stateVersion() == stateVersion && state.lastMsgId() == lastMsgId;
    }
}
