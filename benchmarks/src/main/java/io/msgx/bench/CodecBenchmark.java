package io.msgx.bench;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.Peek;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;


/**
 * {@link JacksonXmlCodec#decode}: the locked-down Woodstox parse into an element tree plus the mapping to a
 * {@code DecodedMessage}, for the message shapes the pump sees most; and {@code peek}, the regex scan that
 * ignore rules and diagnostics use. One shared codec, as in production (it is thread-safe).
 */
@State(Scope.Benchmark)
public class CodecBenchmark extends MicroBenchmark {

    JacksonXmlCodec codec;
    /** SCHD/DNLD, one departure with 23 scalars and 7 lists (16 items). */
    String oneFlightSchedule;
    /** FLOP/GTDT: two gates. */
    String gateFlop;
    /** SCHD/DNLD with 50 flights, departures and arrivals alternating. */
    String fiftyFlightSchedule;

    @Setup
    public void setup() {
        codec = new JacksonXmlCodec();
        oneFlightSchedule = Fixtures.xml("SCHD", "DNLD", Fixtures.dnld(Fixtures.departure(Fixtures.FLID, "CA", 1405, 0)));
        gateFlop = Fixtures.xml("FLOP", "GTDT", Fixtures.gateChange(Fixtures.FLID));
        fiftyFlightSchedule = Fixtures.xml("SCHD", "DNLD", Fixtures.schedulePackage(50));
    }

    @Benchmark
    public DecodeResult decodeScheduleOneFlight() {
        return codec.decode(oneFlightSchedule);
    }

    @Benchmark
    public DecodeResult decodeFlopGtdt() {
        return codec.decode(gateFlop);
    }

    @Benchmark
    public DecodeResult decodeSchedule50Flights() {
        return codec.decode(fiftyFlightSchedule);
    }

    @Benchmark
    public Peek peekScheduleOneFlight() {
        return codec.peek(oneFlightSchedule);
    }
}
