package io.msgx.pipeline.port;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * Flight history cleanup (seeds §9.3, INV-18, D1): which flights have ended, their archive, their removal.
 * Used inside a locked transaction: archive first, delete after, both or neither.
 */
public interface FlightHistory {

    /**
     * Flights past their life: an operation day before {@code operationDayBefore} (or, with no operation day,
     * last updated before {@code unplacedBefore}) <b>and</b> evidence that they ended — {@code DELETED}, or no
     * update since {@code quietBefore}. Oldest first, at most {@code limit}.
     */
    List<FlightId> candidates(LocalDate operationDayBefore, Instant unplacedBefore, Instant quietBefore, int limit);

    /** Whether the flight {@code flid} is one of the {@link #candidates} (whatever its place among them). */
    boolean isCandidate(FlightId flid, LocalDate operationDayBefore, Instant unplacedBefore, Instant quietBefore);

    /** Write the flight's final state to the history store ({@code FLIGHT_HST}); {@code snapshot} is its JSON. */
    void archive(FlightState flight, String snapshot, Instant at);

    /** Physically delete the flight's main row and every list row. */
    void delete(FlightId flid);
}
