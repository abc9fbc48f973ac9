package io.msgx.pipeline.pump;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.FlightStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
    private final FlightCache cache;
    private final Map<FlightId, FlightState> known = new HashMap<>();
    /** The known flights by the master their {@code MAID} names: a group asks for children once per message. */
    private final Map<FlightId, Set<FlightId>> knownChildren = new HashMap<>();
    private final Set<FlightId> absent = new HashSet<>();
    /** The former versions (D-103) asked of the store, by FLID; 0 for a FLID asked for that has none. */
    private final Map<FlightId, Long> former = new HashMap<>();
    private final Map<FlightId, FlightState> changed = new LinkedHashMap<>();
    /** What the store holds, as first read: never overwritten by this transaction's saves. */
    private final Map<FlightId, FlightState> stored = new HashMap<>();
    private final Set<FlightId> childrenRead = new HashSet<>();
    private final List<FlightState> written = new ArrayList<>();

    /** A buffer reading every flight whole from {@code store}. */
    FlightBuffer(FlightStore store) {
        this(store, FlightCache.off());
    }

    /**
     * A buffer that reads stamps first and whole only the flights {@code cache} does not hold in their stored state;
     * the flights it reads whole are remembered there.
     */
    FlightBuffer(FlightStore store, FlightCache cache) {
        this.store = store;
        this.cache = cache;
    }

    @Override
    public List<FlightState> find(Collection<FlightId> flids) {
        read(flids, List.of());
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
        read(List.of(), masters);
        var children = new ArrayList<FlightState>();
        for (var master : new HashSet<>(masters)) {
            for (var child : knownChildren.getOrDefault(master, Set.of())) {
                children.add(known.get(child));
            }
        }
        return children;
    }

    /**
     * Asked of the store once per FLID for the whole transaction; a flight this transaction created is not absent and
     * has none.
     */
    @Override
    public Map<FlightId, Long> formerVersions(Collection<FlightId> flids) {
        var unasked = flids.stream().filter(flid -> !former.containsKey(flid)).distinct().toList();
        if (!unasked.isEmpty()) {
            var answered = store.formerVersions(unasked);
            unasked.forEach(flid -> former.put(flid, answered.getOrDefault(flid, 0L)));
        }
        var answer = new HashMap<FlightId, Long>();
        for (var flid : flids) {
            long version = former.get(flid);
            if (version > 0 && !known.containsKey(flid)) {
                answer.put(flid, version);
            }
        }
        return answer;
    }

    /**
     * {@link #read} for a group: also asks, in one call, the former versions of the flights {@code flids} that do not
     * exist, which a decision creating one of them needs.
     */
    void readAhead(Collection<FlightId> flids, Collection<FlightId> masters) {
        read(flids, masters);
        var missing = flids.stream().filter(absent::contains).toList();
        if (!missing.isEmpty()) {
            formerVersions(missing);
        }
    }

    /**
     * Read, once for the whole transaction, the flights {@code flids} and the children of {@code masters}, in as few
     * store calls as the cache allows: one for the stamps and one for the flights it does not hold, or, without a
     * cache, one for each set.
     */
    void read(Collection<FlightId> flids, Collection<FlightId> masters) {
        var unread = flids.stream().filter(f -> !known.containsKey(f) && !absent.contains(f)).distinct().toList();
        var unreadMasters = masters.stream().filter(m -> !childrenRead.contains(m)).distinct().toList();
        if (unread.isEmpty() && unreadMasters.isEmpty()) {
            return;
        }
        if (cache.isOn()) {
            readThroughCache(unread, unreadMasters);
        } else {
            if (!unread.isEmpty()) {
                store.find(unread).forEach(this::learn);
            }
            if (!unreadMasters.isEmpty()) {
                store.findChildrenOf(unreadMasters).forEach(this::learn);
            }
        }
        unread.stream().filter(f -> !known.containsKey(f)).forEach(absent::add);
        childrenRead.addAll(unreadMasters);
    }

    private void readThroughCache(List<FlightId> flids, List<FlightId> masters) {
        var missing = new ArrayList<FlightId>();
        for (var stamp : store.stampsOf(flids, masters)) {
            if (known.containsKey(stamp.flid())) {
                continue; // read or changed in this transaction already: the buffer's state stands
            }
            var state = cache.stored(stamp);
            if (state == null) {
                missing.add(stamp.flid());
            } else {
                learn(state);
            }
        }
        if (!missing.isEmpty()) {
            var read = store.find(missing);
            read.forEach(this::learn);
            cache.remember(read);
        }
    }

    /** A flight as the store holds it; what this transaction changed already stays as it is. */
    private void learn(FlightState flight) {
        if (known.putIfAbsent(flight.flid(), flight) == null) {
            indexChild(null, flight);
        }
        stored.putIfAbsent(flight.flid(), flight);
        absent.remove(flight.flid());
    }

    /**
     * Keep {@link #knownChildren} true for {@code now}, which replaces {@code before} (null: newly known). A child
     * is a flight whose {@code MAID} names a master, as the stores have it (a flight naming itself included).
     */
    private void indexChild(FlightState before, FlightState now) {
        var oldMaster = before == null ? null : masterNamedBy(before);
        var newMaster = masterNamedBy(now);
        if (oldMaster != null && !oldMaster.equals(newMaster)) {
            knownChildren.get(oldMaster).remove(now.flid());
        }
        if (newMaster != null) {
            knownChildren.computeIfAbsent(newMaster, m -> new LinkedHashSet<>()).add(now.flid());
        }
    }

    private static FlightId masterNamedBy(FlightState flight) {
        var maid = flight.fields().valueOf(FlightField.MAID);
        return maid != null && FlightId.isValid(maid) ? FlightId.of(maid) : null;
    }

    @Override
    public void save(Collection<FlightState> states, Instant now) {
        states.forEach(state -> {
            indexChild(known.put(state.flid(), state), state);
            absent.remove(state.flid());
            changed.put(state.flid(), state);
        });
    }

    /** Write every flight changed in this transaction, once, in its last state. */
    void flush(Instant now) {
        if (!changed.isEmpty()) {
            store.save(changed.values(), stored, now);
            written.addAll(changed.values());
            changed.clear();
        }
    }

    /** The states {@link #flush} wrote, in their last state: what the store holds once the transaction commits. */
    List<FlightState> written() {
        return List.copyOf(written);
    }
}
