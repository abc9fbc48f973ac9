package io.msgx.pipeline.port;

import io.msgx.domain.flight.FlightId;

import java.time.LocalDate;
import java.util.List;

/** Operators' look-ups of flight state; processing never infers a flight's identity from these. */
public interface FlightQueries {

    /**
     * The FLIDs of flights whose {@code FLNO} is {@code flightNumber} and, when {@code operationDay} is not null,
     * whose operation day it is; for operators' look-ups (identity is never inferred from these in processing).
     * At most 50, by FLID.
     */
    List<FlightId> findByFlightNumber(String flightNumber, LocalDate operationDay);
}
