package io.msgx.tools.simulator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The flights of a simulated day in FLID order, with the lookups the scripts need. */
record FlightPlan(List<PlannedFlight> flights) {

    FlightPlan {
        flights = List.copyOf(flights);
    }

    Map<String, PlannedFlight> byFlid() {
        var map = new LinkedHashMap<String, PlannedFlight>();
        flights.forEach(f -> map.put(f.flid(), f));
        return Collections.unmodifiableMap(map);
    }

    /** The operated flights: every flight that is not a code-share child. */
    List<PlannedFlight> operated() {
        return flights.stream().filter(f -> !f.isChild()).toList();
    }

    List<PlannedFlight> children() {
        return flights.stream().filter(PlannedFlight::isChild).toList();
    }

    /** The children the plan links to a master. */
    List<PlannedFlight> childrenOf(String masterFlid) {
        return flights.stream().filter(f -> f.isChild() && f.codeShare().masterFlid().equals(masterFlid)).toList();
    }

    boolean isMaster(String flid) {
        return flights.stream().anyMatch(f -> f.isChild() && f.codeShare().masterFlid().equals(flid));
    }
}
