package io.msgx.example.consumer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The current state of every flight, as the {@code schd} topic tells it: per {@code FLID}, the latest value (the
 * flight's full state, docs/consumers.md "schd: a flight's full state") and the version it is at.
 *
 * <p>Every record goes through one rule, the contract's dedup rule for flights ("Ordering, repeats and
 * deduplication"): keep, per {@code FLID}, the highest {@code stateVersion} applied, and drop any record whose version
 * is not higher. A repeat (the same record sent again after a crash or a take-over) and a late, older record are both
 * dropped by it, so the board never goes back.
 *
 * <p>A deleted flight leaves the board, but its version stays behind (a "grave"): a repeat of an older state, read
 * after the tombstone, is then still not higher, and cannot bring the flight back. Versions never repeat for a
 * {@code FLID}, even across a deletion and a new flight with the same {@code FLID}, so the new flight's first state is
 * higher than the grave and is applied.
 *
 * <p>Not thread-safe: one consumer thread applies, and reads between polls.
 */
public final class FlightBoard {

    /** What a record did to the board. */
    public enum Outcome {
        /** The flight's state was replaced by a newer one (or the flight is new). */
        APPLIED,
        /** A tombstone removed the flight. */
        REMOVED,
        /** Not higher than the version held: a repeat or a late record; the board is unchanged. */
        DROPPED
    }

    /** The version held for a {@code FLID}, and the state at that version; {@code state} is null for a grave. */
    private record Held(long stateVersion, ObjectNode state) {
    }

    private final Map<String, Held> held = new HashMap<>();
    private long dropped;

    /** A {@code schd} value: the flight's full state after {@code stateVersion}. */
    public Outcome applyState(String flid, long stateVersion, ObjectNode state) {
        if (!isNewer(flid, stateVersion)) {
            dropped++;
            return Outcome.DROPPED;
        }
        held.put(flid, new Held(stateVersion, state));
        return Outcome.APPLIED;
    }

    /**
     * A {@code schd} tombstone: the flight was deleted by version {@code version} (its {@code msgx_stateversion}
     * header). The flight leaves the board, its version stays as its grave: a late copy of an older state cannot bring
     * it back, while a new flight of the same {@code FLID} (higher versions) is applied.
     */
    public Outcome applyDeletion(String flid, long version) {
        if (!isNewer(flid, version)) {
            dropped++;
            return Outcome.DROPPED;
        }
        held.put(flid, new Held(version, null));
        return Outcome.REMOVED;
    }

    private boolean isNewer(String flid, long stateVersion) {
        var current = held.get(flid);
        return current == null || stateVersion > current.stateVersion();
    }

    /** The flights on the board (deleted ones absent), by {@code FLID}. The values are the board's own: do not change them. */
    public Map<String, ObjectNode> flights() {
        var flights = new TreeMap<String, ObjectNode>();
        held.forEach((flid, h) -> {
            if (h.state() != null) {
                flights.put(flid, h.state());
            }
        });
        return flights;
    }

    /** The version of every flight on the board (deleted ones absent), by {@code FLID}. */
    public Map<String, Long> versions() {
        var versions = new TreeMap<String, Long>();
        held.forEach((flid, h) -> {
            if (h.state() != null) {
                versions.put(flid, h.stateVersion());
            }
        });
        return versions;
    }

    /** The highest version applied for {@code flid}, that of a deleted flight's grave included; empty if never seen. */
    public OptionalLong versionOf(String flid) {
        var h = held.get(flid);
        return h == null ? OptionalLong.empty() : OptionalLong.of(h.stateVersion());
    }

    /** Records dropped by the dedup rule: repeats and late, older records. */
    public long dropped() {
        return dropped;
    }
}
