package io.msgx.pipeline.pump;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.store.FlightStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The flights of one business transaction: reads go to the store once per FLID and are remembered; saves stay
 * here until {@link #flush}, so the next decision of the same transaction reads what the previous one decided,
 * and a flight changed by several messages is written once, in its last state.
 *
 * <p>Every flight this buffer saves was looked up first (the engine decides only on flights it read), so it knows
 * what the store holds for each, and the store can leave unchanged lists alone.
 *
 * <p>Children of a master ({@link #findChildrenOf}) are the store's children, read once per master, seen through
 * this transaction's own changes: a flight that left the master here is not listed, a flight that joined it here
 * is. Nothing but this buffer writes flights while the transaction holds {@code PIPELINE_LOCK}, so what was read
 * once stays true until {@link #flush}.
 */
final class FlightBuffer implements FlightStore {

    private final FlightStore store;
    private final Map<FlightId, FlightState> known = new HashMap<>();
    private final Set<FlightId> absent = new HashSet<>();
    private final Map<FlightId, FlightState> changed = new LinkedHashMap<>();
    /** What the store holds, as first read: never overwritten by this transaction's saves. */
    private final Map<FlightId, FlightState> stored = new HashMap<>();
    private final Set<FlightId> childrenRead = new HashSet<>();

    FlightBuffer(FlightStore store) {
        this.store = store;
    }

    @Override
    public List<FlightState> find(Collection<FlightId> flids) {
        var unread = flids.stream().filter(f -> !known.containsKey(f) && !absent.contains(f)).distinct().toList();
        if (!unread.isEmpty()) {
            store.find(unread).forEach(f -> {
                known.put(f.flid(), f);
                stored.put(f.flid(), f);
            });
            unread.stream().filter(f -> !known.containsKey(f)).forEach(absent::add);
        }
        var found = new ArrayList<FlightState>();
        for (var flid : new HashSet<>(flids)) {
            var flight = known.get(flid);
            if (flight != null) {
                found.add(flight);
            }
        }
        return found;
    }

    @Override
    public List<FlightState> findChildrenOf(Collection<FlightId> masters) {
        if (masters.isEmpty()) {
            return List.of();
        }
        var unread = masters.stream().filter(m -> !childrenRead.contains(m)).distinct().toList();
        if (!unread.isEmpty()) {
            store.findChildrenOf(unread).forEach(f -> {
                known.putIfAbsent(f.flid(), f);
                stored.putIfAbsent(f.flid(), f);
                absent.remove(f.flid());
            });
            childrenRead.addAll(unread);
        }
        return known.values().stream()
                .filter(f -> namesOneOf(f, masters))
                .toList();
    }

    /** The stores' predicate: the flight's {@code MAID} is one of {@code masters} (even its own FLID). */
    private static boolean namesOneOf(FlightState flight, Collection<FlightId> masters) {
        var maid = flight.fields().valueOf(FlightField.MAID);
        return maid != null && FlightId.isValid(maid) && masters.contains(FlightId.of(maid));
    }

    @Override
    public void save(Collection<FlightState> states, Instant now) {
        states.forEach(state -> {
            known.put(state.flid(), state);
            absent.remove(state.flid());
            changed.put(state.flid(), state);
        });
    }

    /** Write every flight changed in this transaction, once, in its last state. */
    void flush(Instant now) {
        if (!changed.isEmpty()) {
            store.save(changed.values(), stored, now);
            changed.clear();
        }
    }
}
