package io.msgx.bench;

import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.published.ChangeCause;
import io.msgx.pipeline.published.FlightEventJson;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;


/**
 * {@link FlightEventJson}: the two Kafka values written to the outbox for every changed flight, the
 * {@code schd} projection (full state, every field and list) and the {@code msg} notification. Both build a
 * Jackson tree and serialise it.
 */
@State(Scope.Benchmark)
public class EventJsonBenchmark extends MicroBenchmark {

    FlightEventJson json;
    /** A new full departure (23 scalars, 16 list items), as a one-flight DNLD creates it. */
    FlightChange fullFlight;
    /** A code-share master with a MAFL of three children, as FLOP CSHR leaves it. */
    FlightChange master;
    ChangeCause cause;

    @Setup
    public void setup() {
        json = new FlightEventJson(OperationDayRule.DEFAULT_ZONE);
        var engine = Fixtures.engine();
        var empty = new Fixtures.MapFlightStore();
        var create = Fixtures.dnld(Fixtures.departure(Fixtures.FLID, "CA", 1405, 0));
        fullFlight = Fixtures.changes(engine.apply(Fixtures.snapshotFor(engine, empty, create), create, 1000)).get(0);

        var store = Fixtures.storeWith(
                Fixtures.departure(Fixtures.MASTER, "MU", 5101, 0),
                Fixtures.child(Fixtures.CHILD_1, "FM", 9101, Fixtures.MASTER),
                Fixtures.child(Fixtures.CHILD_2, "KE", 5801, Fixtures.MASTER),
                Fixtures.departure(Fixtures.JOINER, "DL", 6301, 0));
        var join = Fixtures.joinCodeShare(Fixtures.JOINER, Fixtures.MASTER);
        master = Fixtures.changes(engine.apply(Fixtures.snapshotFor(engine, store, join), join, 1001)).stream()
                .filter(change -> change.after().flid().value().equals(Fixtures.MASTER))
                .findFirst().orElseThrow();
        cause = ChangeCause.message(1000, Fixtures.meta("SCHD", "DNLD", 4711));
    }

    @Benchmark
    public String projectionFullFlight() {
        return json.projection(fullFlight, cause, Fixtures.UPDATED_AT);
    }

    @Benchmark
    public String projectionMasterWithMafl() {
        return json.projection(master, cause, Fixtures.UPDATED_AT);
    }

    @Benchmark
    public String notificationFullFlight() {
        return json.notification(fullFlight.event(), cause, Fixtures.UPDATED_AT);
    }
}
