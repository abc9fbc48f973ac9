package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * {@code FLIGHT_SCHD} with its detail tables: the authoritative flight state. Reads return full states (main
 * row and every list) in a bounded number of round trips, whatever the number of flights.
 */
public interface FlightStore {

    /** The full states of the flights with these FLIDs that exist, in no particular order. */
    List<FlightState> find(Collection<FlightId> flids);

    /** The full states of every flight whose {@code MAID} names one of {@code masters}, whatever its status. */
    List<FlightState> findChildrenOf(Collection<FlightId> masters);

    /**
     * Write full states: the main row is inserted or updated, and every list is rewritten for the FLID
     * (delete, then insert in {@code ORDINAL} order; INV-14). {@code now} is the audit time.
     */
    void save(Collection<FlightState> states, Instant now);
}
