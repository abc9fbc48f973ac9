package io.msgx.domain.message;

import java.util.List;
import java.util.Objects;

/**
 * A schedule ({@code SCHD}): the declared record count ({@code RECS}, null when absent) and the records in
 * message order.
 */
public record ScheduleMessage(ScheduleKind kind, Integer declaredCount, List<FlightRecord> records)
        implements FlightMessage {

    public ScheduleMessage {
        Objects.requireNonNull(kind, "kind");
        records = List.copyOf(records);
    }

    @Override
    public <R> R match(Cases<R> cases) {
        return cases.schedule(this);
    }
}
