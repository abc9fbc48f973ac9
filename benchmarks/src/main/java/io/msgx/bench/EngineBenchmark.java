package io.msgx.bench;

import io.msgx.domain.engine.Decision;
import io.msgx.domain.engine.FlightSnapshot;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.message.FlightMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;


/**
 * {@link FlightStateEngine#apply}: the pure decision of one message on a snapshot read the way
 * {@code FlightProcessor} reads it ({@code FlightReads.snapshotFor}, built once in setup, so no store time is
 * measured). The engine keeps no state, so applying the same message to the same snapshot again is the same
 * work every time.
 */
@State(Scope.Benchmark)
public class EngineBenchmark extends MicroBenchmark {

    static final long MSG_ID = 1000;

    FlightStateEngine engine;

    FlightMessage gateFlop;
    FlightSnapshot gateFlopSnapshot;

    FlightMessage scheduleUpdate;
    FlightSnapshot scheduleUpdateSnapshot;

    FlightMessage scheduleNew;
    FlightSnapshot scheduleNewSnapshot;

    FlightMessage codeShareJoin;
    FlightSnapshot codeShareJoinSnapshot;

    FlightMessage package50New;
    FlightSnapshot package50NewSnapshot;

    @Setup
    public void setup() {
        engine = Fixtures.engine();
        var store = Fixtures.storeWith(
                Fixtures.departure(Fixtures.FLID, "CA", 1405, 0),
                Fixtures.departure(Fixtures.MASTER, "MU", 5101, 0),
                Fixtures.child(Fixtures.CHILD_1, "FM", 9101, Fixtures.MASTER),
                Fixtures.child(Fixtures.CHILD_2, "KE", 5801, Fixtures.MASTER),
                Fixtures.departure(Fixtures.JOINER, "DL", 6301, 0));

        gateFlop = Fixtures.gateChange(Fixtures.FLID);
        gateFlopSnapshot = Fixtures.snapshotFor(engine, store, gateFlop);

        scheduleUpdate = Fixtures.dnld(Fixtures.departure(Fixtures.FLID, "CA", 1405, 1));
        scheduleUpdateSnapshot = Fixtures.snapshotFor(engine, store, scheduleUpdate);

        scheduleNew = Fixtures.dnld(Fixtures.departure(Fixtures.NEW_FLID, "ZH", 9999, 0));
        scheduleNewSnapshot = Fixtures.snapshotFor(engine, store, scheduleNew);

        codeShareJoin = Fixtures.joinCodeShare(Fixtures.JOINER, Fixtures.MASTER);
        codeShareJoinSnapshot = Fixtures.snapshotFor(engine, store, codeShareJoin);

        package50New = Fixtures.schedulePackage(50);
        package50NewSnapshot = Fixtures.snapshotFor(engine, new Fixtures.MapFlightStore(), package50New);
    }

    /** FLOP GTDT on an existing flight: one flight changes (GTDT). */
    @Benchmark
    public Decision flopOnExistingFlight() {
        return engine.apply(gateFlopSnapshot, gateFlop, MSG_ID);
    }

    /** A one-flight SCHD DNLD re-sent with another stand, aircraft and gate: one flight updated. */
    @Benchmark
    public Decision scheduleUpdatesExistingFlight() {
        return engine.apply(scheduleUpdateSnapshot, scheduleUpdate, MSG_ID);
    }

    /** A one-flight SCHD DNLD for a FLID the store does not hold: one flight created. */
    @Benchmark
    public Decision scheduleCreatesFlight() {
        return engine.apply(scheduleNewSnapshot, scheduleNew, MSG_ID);
    }

    /** FLOP CSHR making a flight the third child of a master: the child and the master's MAFL change. */
    @Benchmark
    public Decision codeShareJoinsMaster() {
        return engine.apply(codeShareJoinSnapshot, codeShareJoin, MSG_ID);
    }

    /** The 50-flight daily package on an empty store: 50 flights created. */
    @Benchmark
    public Decision schedule50CreatesFlights() {
        return engine.apply(package50NewSnapshot, package50New, MSG_ID);
    }
}
