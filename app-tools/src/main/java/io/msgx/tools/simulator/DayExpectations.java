package io.msgx.tools.simulator;

import io.msgx.domain.message.FlopSubtype;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a simulated day should come to, stated without re-implementing the domain, for tests and the demo.
 *
 * @param scheduledFlids every FLID the day schedules (plan and ADFT), in FLID order
 * @param messagesByKind how many messages of each kind the day holds (every kind present, zero included)
 * @param deletedFlids   the FLIDs that end {@code DELETED}: the deleted flights and the code-share children still
 *                       linked to a deleted master at its deletion
 * @param flopSubtypes   the {@code FLOP} subtypes the day's operations use
 */
public record DayExpectations(Set<String> scheduledFlids, Map<SimulatedMessage.Kind, Integer> messagesByKind,
                              Set<String> deletedFlids, Set<FlopSubtype> flopSubtypes) {

    public DayExpectations {
        scheduledFlids = Collections.unmodifiableSet(new TreeSet<>(scheduledFlids));
        var counts = new EnumMap<SimulatedMessage.Kind, Integer>(SimulatedMessage.Kind.class);
        for (var kind : SimulatedMessage.Kind.values()) {
            counts.put(kind, messagesByKind.getOrDefault(kind, 0));
        }
        messagesByKind = Collections.unmodifiableMap(counts);
        deletedFlids = Collections.unmodifiableSet(new TreeSet<>(deletedFlids));
        flopSubtypes = Collections.unmodifiableSet(flopSubtypes.isEmpty()
                ? EnumSet.noneOf(FlopSubtype.class) : EnumSet.copyOf(flopSubtypes));
        if (!scheduledFlids.containsAll(deletedFlids)) {
            throw new IllegalArgumentException("a deleted flight must be a scheduled one");
        }
    }

    /** How many flights the day schedules. */
    public int flightsScheduled() {
        return scheduledFlids.size();
    }

    /** How many messages of one kind. */
    public int count(SimulatedMessage.Kind kind) {
        return messagesByKind.get(kind);
    }

    /** The scheduled flights that end {@code ACTIVE}. */
    public Set<String> activeFlids() {
        var active = new TreeSet<>(scheduledFlids);
        active.removeAll(deletedFlids);
        return Collections.unmodifiableSet(active);
    }
}
