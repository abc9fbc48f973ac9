package io.msgx.bench;

import io.msgx.domain.engine.ChangeType;
import io.msgx.domain.engine.Decision;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.DecodeResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark method once on its setup state and checks the result is the success path it claims
 * to measure, so a broken fixture fails the build instead of timing an error path.
 */
class BenchmarksSmokeTest {

    @Test
    void everyBenchmarkMeasuresItsSuccessPath() {
        var codec = new CodecBenchmark();
        codec.setup();
        var one = scheduleOf(codec.decodeScheduleOneFlight());
        assertThat(one.records()).singleElement().satisfies(r -> {
            assertThat(r.flid()).isEqualTo(Fixtures.FLID);
            assertThat(r.patch().fields()).hasSize(23);
            assertThat(r.patch().lists()).containsOnlyKeys(FlightList.GTDT, FlightList.CKDT, FlightList.PSDT,
                    FlightList.CHDT, FlightList.ROUT, FlightList.ERUT, FlightList.SRVT);
            assertThat(r.patch().lists().get(FlightList.CKDT)).hasSize(6);
        });
        var flop = (FlightOperation) flightMessageOf(codec.decodeFlopGtdt());
        assertThat(flop.flid()).isEqualTo(Fixtures.FLID);
        assertThat(flop.patch().lists().get(FlightList.GTDT)).hasSize(2);
        var fifty = scheduleOf(codec.decodeSchedule50Flights());
        assertThat(fifty.records()).hasSize(50);
        assertThat(fifty.declaredCount()).isEqualTo(50);
        var peek = codec.peekScheduleOneFlight();
        assertThat(peek.type()).contains("SCHD");
        assertThat(peek.subtype()).contains("DNLD");

        var engine = new EngineBenchmark();
        engine.setup();
        assertThat(applied(engine.flopOnExistingFlight())).singleElement().satisfies(c -> {
            assertThat(c.isNew()).isFalse();
            assertThat(c.event().changed()).containsExactly("GTDT");
        });
        assertThat(applied(engine.scheduleUpdatesExistingFlight())).singleElement().satisfies(c -> {
            assertThat(c.isNew()).isFalse();
            assertThat(c.after().stateVersion()).isEqualTo(c.before().stateVersion() + 1);
            assertThat(c.event().changed()).contains("STND", "ACFT", "GTDT");
        });
        assertThat(applied(engine.scheduleCreatesFlight())).singleElement().satisfies(c -> {
            assertThat(c.isNew()).isTrue();
            assertThat(c.after().flid().value()).isEqualTo(Fixtures.NEW_FLID);
        });
        var join = applied(engine.codeShareJoinsMaster());
        assertThat(join).extracting(c -> c.after().flid().value())
                .containsExactlyInAnyOrder(Fixtures.JOINER, Fixtures.MASTER);
        assertThat(join).filteredOn(c -> c.after().flid().value().equals(Fixtures.MASTER)).singleElement()
                .satisfies(c -> {
                    assertThat(c.mafl()).hasSize(3);
                    assertThat(c.event().changed()).containsExactly("MAFL");
                });
        assertThat(applied(engine.schedule50CreatesFlights())).hasSize(50).allMatch(FlightChange::isNew);

        var json = new EventJsonBenchmark();
        json.setup();
        assertThat(json.projectionFullFlight())
                .startsWith("{\"flid\":\"" + Fixtures.FLID + "\"")
                .contains("\"state\":\"ACTIVE\"", "\"GTDT\":[{\"ordinal\":1", "\"CHKC\":\"16\"");
        assertThat(json.projectionMasterWithMafl())
                .contains("\"flid\":\"" + Fixtures.MASTER + "\"", "\"mafl\":[{", Fixtures.JOINER);
        assertThat(json.notificationFullFlight())
                .contains("\"flid\":\"" + Fixtures.FLID + "\"", "\"msgId\":1000", "\"change\":\"" + ChangeType.UPSERT + "\"");
    }

    private static ScheduleMessage scheduleOf(DecodeResult result) {
        return (ScheduleMessage) flightMessageOf(result);
    }

    private static Object flightMessageOf(DecodeResult result) {
        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        return ((DecodeResult.Decoded) result).message().flightMessage().orElseThrow();
    }

    private static List<FlightChange> applied(Decision decision) {
        assertThat(decision).isInstanceOf(Decision.Applied.class);
        return ((Decision.Applied) decision).changes();
    }
}
