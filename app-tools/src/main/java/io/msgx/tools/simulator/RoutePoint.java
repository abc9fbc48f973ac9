package io.msgx.tools.simulator;

import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.SisTime;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;

/** One airport of a route with its scheduled arrival and departure there (either may be null). */
record RoutePoint(String airport, LocalDateTime scheduledArrival, LocalDateTime scheduledDeparture) {

    /** The point as a {@code ROUT}/{@code ERUT} item with its {@code RTNO}. */
    ListItem asItem(int sequence) {
        var values = new LinkedHashMap<String, String>();
        values.put("APCD", airport);
        if (scheduledArrival != null) {
            values.put("SCAT", SisTime.format(scheduledArrival));
        }
        if (scheduledDeparture != null) {
            values.put("SCDT", SisTime.format(scheduledDeparture));
        }
        return ListItem.of(sequence, values);
    }
}
