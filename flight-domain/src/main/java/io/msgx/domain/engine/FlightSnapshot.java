package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The current states a decision reads, taken under one consistent read.
 *
 * <p>A snapshot knows what it covers: the FLIDs that were looked up (found or not) and the masters whose
 * complete child sets were loaded. Reading outside that is a defect in the caller, reported at once rather
 * than mistaken for "no such flight". {@link FlightStateEngine#flightsNamedBy} and
 * {@link FlightStateEngine#mastersTouchedBy} say what a message needs, so a store loads it in two batched
 * reads. {@link #complete} covers everything, for in-memory stores and tests.
 */
public final class FlightSnapshot {

    private final Map<FlightId, FlightState> flights;
    private final Set<FlightId> lookedUp;
    private final Set<FlightId> childSetsLoaded;
    private final boolean complete;
    private final Map<FlightId, Long> formerVersions;

    private FlightSnapshot(Map<FlightId, FlightState> flights, Set<FlightId> lookedUp, Set<FlightId> childSetsLoaded,
                           boolean complete, Map<FlightId, Long> formerVersions) {
        this.flights = Map.copyOf(flights);
        this.lookedUp = Set.copyOf(lookedUp);
        this.childSetsLoaded = Set.copyOf(childSetsLoaded);
        this.complete = complete;
        this.formerVersions = Map.copyOf(formerVersions);
    }

    /** A snapshot of every flight there is: any FLID not in it does not exist. */
    public static FlightSnapshot complete(Collection<FlightState> allFlights) {
        return new FlightSnapshot(index(allFlights), Set.of(), Set.of(), true, Map.of());
    }

    /**
     * A partial snapshot: {@code found} are the states read; {@code lookedUp} every FLID that was asked for
     * (a FLID asked for and not found does not exist); {@code childSetsLoaded} the masters all of whose
     * children are among {@code found}.
     */
    public static FlightSnapshot partial(Collection<FlightState> found, Set<FlightId> lookedUp,
                                         Set<FlightId> childSetsLoaded) {
        var covered = new HashSet<>(lookedUp);
        covered.addAll(childSetsLoaded);
        found.forEach(f -> covered.add(f.flid()));
        return new FlightSnapshot(index(found), covered, childSetsLoaded, false, Map.of());
    }

    /**
     * This snapshot knowing, for flights that do not exist now, the last {@code STATE_VERSION} each was published
     * with before the history cleanup took it out of the current state: a flight that comes back continues above it,
     * so that a FLID's version never goes back (D-103). A FLID without an entry starts at 1.
     *
     * @throws IllegalArgumentException when a FLID of {@code former} exists in this snapshot, or a version is below 1
     */
    public FlightSnapshot withFormerVersions(Map<FlightId, Long> former) {
        former.forEach((flid, version) -> {
            if (flights.containsKey(flid)) {
                throw new IllegalArgumentException("FLID " + flid + " exists; only a flight that left the current "
                        + "state has a former version");
            }
            if (version < 1) {
                throw new IllegalArgumentException("FLID " + flid + ": a former version starts at 1, got " + version);
            }
        });
        return new FlightSnapshot(flights, lookedUp, childSetsLoaded, complete, former);
    }

    /** The version a flight that does not exist now was last published with, if it existed before. */
    public Optional<Long> formerVersion(FlightId flid) {
        return Optional.ofNullable(formerVersions.get(flid));
    }

    private static Map<FlightId, FlightState> index(Collection<FlightState> states) {
        var map = new HashMap<FlightId, FlightState>();
        for (var state : states) {
            if (map.put(state.flid(), state) != null) {
                throw new IllegalArgumentException("FLID " + state.flid() + " appears twice in a snapshot");
            }
        }
        return map;
    }

    /**
     * This snapshot as an earlier part of the same decision left it: {@code proposed} replace the states of their FLIDs,
     * each of which this snapshot covers. How the parts of a batch each see the flights as the previous part left them.
     */
    FlightSnapshot overlaidWith(Map<FlightId, FlightState> proposed) {
        var overlaid = new HashMap<>(flights);
        proposed.forEach((flid, state) -> {
            find(flid); // refuses a FLID this snapshot does not cover
            overlaid.put(flid, state);
        });
        return new FlightSnapshot(overlaid, lookedUp, childSetsLoaded, complete, formerVersions);
    }

    /** The flight's current state, or empty when no such flight exists. */
    public Optional<FlightState> find(FlightId flid) {
        if (!complete && !lookedUp.contains(flid)) {
            throw new IllegalStateException("FLID " + flid + " was not read into this snapshot; the caller must "
                    + "load every flight FlightStateEngine.flightsNamedBy / mastersTouchedBy names");
        }
        return Optional.ofNullable(flights.get(flid));
    }

    /** Every flight in the snapshot that names {@code master} in its {@code MAID}, whatever its state. */
    public List<FlightState> childrenOf(FlightId master) {
        requireChildSet(master);
        return flights.values().stream().filter(f -> f.masterId().filter(master::equals).isPresent()).toList();
    }

    void requireChildSet(FlightId master) {
        if (!complete && !childSetsLoaded.contains(master)) {
            throw new IllegalStateException("the children of master FLID " + master + " were not read into this "
                    + "snapshot; load them with the masters FlightStateEngine.mastersTouchedBy names");
        }
    }

    /** Every state in the snapshot. */
    public Collection<FlightState> states() {
        return flights.values();
    }
}
