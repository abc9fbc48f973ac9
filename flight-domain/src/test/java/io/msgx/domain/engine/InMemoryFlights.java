package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.message.FlightMessage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * A tiny in-memory flight store for domain tests: applies the engine's decisions, and can build either a
 * complete snapshot or the partial one a database store would read through the engine's read plan.
 */
final class InMemoryFlights {

    private final FlightStateEngine engine;
    private final Map<FlightId, FlightState> flights = new HashMap<>();
    /** The last version of each flight {@link #archive} took out, as a store's history keeps it. */
    private final Map<FlightId, Long> former = new HashMap<>();
    private long nextMsgId = 1;

    InMemoryFlights(FlightStateEngine engine) {
        this.engine = engine;
    }

    InMemoryFlights() {
        this(new FlightStateEngine(EngineSettings.defaults()));
    }

    Decision accept(FlightMessage message) {
        var absentFormer = new HashMap<>(former);
        absentFormer.keySet().removeAll(flights.keySet());
        var decision = engine.apply(FlightSnapshot.complete(flights.values()).withFormerVersions(absentFormer), message,
                nextMsgId++);
        if (decision instanceof Decision.Applied applied) {
            applied.changes().forEach(c -> flights.put(c.after().flid(), c.after()));
        }
        return decision;
    }

    Decision.Applied applied(FlightMessage message) {
        var decision = accept(message);
        if (decision instanceof Decision.Applied applied) {
            return applied;
        }
        throw new AssertionError("expected the message to apply, got " + decision);
    }

    /** Take the flight out of the current state, as the history cleanup does once it ended; false when absent. */
    boolean archive(String flid) {
        var gone = flights.remove(FlightId.of(flid));
        if (gone != null) {
            former.put(gone.flid(), gone.stateVersion());
        }
        return gone != null;
    }

    FlightState get(String flid) {
        var state = flights.get(FlightId.of(flid));
        if (state == null) {
            throw new AssertionError("no flight " + flid);
        }
        return state;
    }

    boolean contains(String flid) {
        return flights.containsKey(FlightId.of(flid));
    }

    List<FlightState> all() {
        return new ArrayList<>(flights.values());
    }

    long lastMsgId() {
        return nextMsgId - 1;
    }

    /** The snapshot a batched store would read: named flights, then touched masters and their children. */
    FlightSnapshot readThroughPlan(FlightMessage message) {
        var named = engine.flightsNamedBy(message);
        var firstRead = found(named);
        var partial = FlightSnapshot.partial(firstRead, named, java.util.Set.of());
        var masters = engine.mastersTouchedBy(message, partial);
        var all = new HashMap<FlightId, FlightState>();
        firstRead.forEach(f -> all.put(f.flid(), f));
        found(masters).forEach(f -> all.put(f.flid(), f));
        flights.values().stream()
                .filter(f -> f.masterId().filter(masters::contains).isPresent())
                .forEach(f -> all.put(f.flid(), f));
        var lookedUp = new HashSet<>(named);
        lookedUp.addAll(masters);
        return FlightSnapshot.partial(all.values(), lookedUp, masters);
    }

    private List<FlightState> found(java.util.Set<FlightId> ids) {
        return ids.stream().map(flights::get).filter(java.util.Objects::nonNull).toList();
    }

    FlightStateEngine engine() {
        return engine;
    }

    long peekNextMsgId() {
        return nextMsgId;
    }
}
