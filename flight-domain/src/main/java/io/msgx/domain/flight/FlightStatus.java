package io.msgx.domain.flight;

/** The business state of a flight instance. Only {@code FDEL} moves a flight to {@link #DELETED}. */
public enum FlightStatus {
    ACTIVE,
    DELETED
}
