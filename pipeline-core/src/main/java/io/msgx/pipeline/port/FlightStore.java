package io.msgx.pipeline.port;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.record.FlightStamp;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
     * For FLIDs that have no current state: the last {@code STATE_VERSION} each was published with before the history
     * cleanup took it out ({@code FLIGHT_HST}), and for every FLID at least the highest version the flight history's
     * retention has forgotten, so that a flight that comes back, even after its history is gone, continues above
     * anything consumers were sent for its FLID (D-103). A FLID with nothing to say (never archived, nothing
     * forgotten) is left out.
     */
    Map<FlightId, Long> formerVersions(Collection<FlightId> absent);

    /**
     * The {@linkplain FlightStamp stamps} of the flights with these FLIDs that exist and of every flight whose
     * {@code MAID} names one of {@code masters}, each once, in no particular order: what {@link #find} and
     * {@link #findChildrenOf} would return, without the states, so a caller that knows states already reads whole
     * only those that changed. The default reads them whole; the database stores read the main rows' stamp columns in
     * one statement.
     */
    default List<FlightStamp> stampsOf(Collection<FlightId> flids, Collection<FlightId> masters) {
        var stamps = new LinkedHashMap<FlightId, FlightStamp>();
        find(flids).forEach(state -> stamps.put(state.flid(), FlightStamp.of(state)));
        findChildrenOf(masters).forEach(state -> stamps.putIfAbsent(state.flid(), FlightStamp.of(state)));
        return List.copyOf(stamps.values());
    }

    /**
     * Write full states: the main row is inserted or updated, and every list is rewritten for the FLID
     * (delete, then insert in {@code ORDINAL} order; INV-14). {@code now} is the audit time.
     */
    void save(Collection<FlightState> states, Instant now);

    /**
     * {@link #save} knowing what the store holds: {@code stored} has, for every flight of {@code states} that exists,
     * its state as read in this transaction; a flight not in it is new. A store may then leave alone the lists a
     * flight did not change (and delete nothing of a new flight). The default saves everything.
     */
    default void save(Collection<FlightState> states, Map<FlightId, FlightState> stored, Instant now) {
        save(states, now);
    }

    /**
     * The states of one {@link #save} by FLID value, in their order, each refused (naming the FLID and the field) when
     * a store would truncate or lose part of it, and the whole save refused when a FLID appears twice; for the
     * implementations.
     */
    static Map<String, FlightState> storableByFlid(Collection<FlightState> states) {
        var byFlid = new LinkedHashMap<String, FlightState>();
        for (var state : states) {
            requireStorable(state);
            if (byFlid.putIfAbsent(state.flid().value(), state) != null) {
                throw new IllegalArgumentException("FLID " + state.flid() + " appears twice in one save: "
                        + "pass one full state per flight (the engine's latest)");
            }
        }
        return byFlid;
    }

    /**
     * Refuses what a store would truncate or lose: a value longer than {@link FlightField#MAX_VALUE_LENGTH}, a list
     * item carrying a field its list does not have.
     */
    private static void requireStorable(FlightState state) {
        state.fields().asMap().forEach((field, value) -> {
            if (value.length() > FlightField.MAX_VALUE_LENGTH) {
                throw new IllegalArgumentException("FLID " + state.flid() + ": " + field + " is " + value.length()
                        + " characters, the store keeps at most " + FlightField.MAX_VALUE_LENGTH
                        + "; the message must be rejected before it reaches the store");
            }
        });
        state.lists().asMap().forEach((list, items) -> {
            for (int i = 0; i < items.size(); i++) {
                for (var entry : items.get(i).values().entrySet()) {
                    if (!list.hasItemField(entry.getKey())) {
                        throw new IllegalArgumentException("FLID " + state.flid() + ": " + list + " item " + (i + 1)
                                + " carries " + entry.getKey() + ", which is not a field of " + list
                                + " " + list.itemFields() + "; the store has no column for it");
                    }
                    int limit = list.maxValueLength(entry.getKey());
                    if (entry.getValue().length() > limit) {
                        throw new IllegalArgumentException("FLID " + state.flid() + ": " + list + " item " + (i + 1)
                                + " " + entry.getKey() + " is " + entry.getValue().length()
                                + " characters, the store keeps at most " + limit);
                    }
                }
            }
        });
    }
}
