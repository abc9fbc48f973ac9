package io.msgx.pipeline.pump;

import io.msgx.domain.engine.FlightSnapshot;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.message.FlightMessage;
import io.msgx.pipeline.port.FlightStore;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads what one decision needs, in the engine's two steps and a bounded number of store calls whatever the
 * package size: the flights the message names; then the masters those flights touch that were not read yet,
 * and every child of those masters; and, for the named flights that do not exist, the versions their FLIDs had
 * before they were archived.
 */
public final class FlightReads {

    private FlightReads() {
    }

    public static FlightSnapshot snapshotFor(FlightStateEngine engine, FlightStore flights, FlightMessage message) {
        var named = engine.flightsNamedBy(message);
        var read = new LinkedHashMap<FlightId, FlightState>();
        flights.find(named).forEach(f -> read.put(f.flid(), f));
        var masters = engine.mastersTouchedBy(message, FlightSnapshot.partial(read.values(), named, Set.of()));

        var unreadMasters = new TreeSet<>(masters);
        unreadMasters.removeAll(named);
        if (!unreadMasters.isEmpty()) {
            flights.find(unreadMasters).forEach(f -> read.putIfAbsent(f.flid(), f));
        }
        flights.findChildrenOf(masters).forEach(f -> read.putIfAbsent(f.flid(), f));

        var lookedUp = new HashSet<>(named);
        lookedUp.addAll(masters);
        // Only a named flight can be created; one that is absent may come back from its archive (D-103).
        var absent = named.stream().filter(flid -> !read.containsKey(flid)).toList();
        var former = absent.isEmpty() ? Map.<FlightId, Long>of() : flights.formerVersions(absent);
        return FlightSnapshot.partial(read.values(), lookedUp, masters).withFormerVersions(former);
    }
}
