package io.msgx.pipeline.pump;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.record.FlightStamp;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The flights the pump read or wrote lately, so that a decision reads from the store only the stamps of the flights
 * it needs ({@link io.msgx.pipeline.port.FlightStore#stampsOf}) and, whole, only those whose stamp differs (decision
 * D-39). The store stays the authority: a state here is used only when its {@link FlightStamp} equals the stored
 * one, read in the same locked transaction, so a flight changed behind the pump's back (by another instance, the
 * lifecycle cleanup, an operator, a restored database) is simply read again.
 *
 * <p>What may enter: states read from the store (committed data), and states the pump wrote, once their
 * transaction has committed. A store returns a flight exactly as it was saved (the flight store contract), so a
 * remembered state and a fresh read of the same stamp are equal.
 *
 * <p>Bounded: the least recently used flight leaves when {@code capacity} is reached. A capacity of 0 turns it off
 * and the reads are exactly those without it. Safe for use from several threads.
 */
public final class FlightCache {

    /** The default capacity: several days of a busy hub's flights (about 1,000 a day), a few tens of MiB. */
    public static final int DEFAULT_CAPACITY = 5_000;

    private final int capacity;
    private final Map<FlightId, FlightState> states;
    private long hits;
    private long misses;

    private FlightCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a flight cache holds 0 or more flights, got " + capacity);
        }
        this.capacity = capacity;
        this.states = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<FlightId, FlightState> eldest) {
                return size() > FlightCache.this.capacity;
            }
        };
    }

    /** A cache of up to {@code capacity} flights; 0 is {@link #off()}. */
    public static FlightCache holding(int capacity) {
        return new FlightCache(capacity);
    }

    /** No cache: every flight is read whole from the store. */
    public static FlightCache off() {
        return new FlightCache(0);
    }

    public boolean isOn() {
        return capacity > 0;
    }

    /**
     * The remembered state of {@code stamp}'s flight when it is the stored one; otherwise null, and a remembered
     * state that no longer matches is dropped.
     */
    public synchronized FlightState stored(FlightStamp stamp) {
        var state = states.get(stamp.flid());
        if (state != null && stamp.matches(state)) {
            hits++;
            return state;
        }
        if (state != null) {
            states.remove(stamp.flid());
        }
        misses++;
        return null;
    }

    /** Remember committed states: read from the store, or written by a transaction that has committed. */
    public synchronized void remember(Collection<FlightState> committed) {
        if (capacity == 0) {
            return;
        }
        committed.forEach(state -> states.put(state.flid(), state));
    }

    public synchronized int size() {
        return states.size();
    }

    /** Stamps that found their state here, and those that did not, since the cache was made. */
    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }
}
