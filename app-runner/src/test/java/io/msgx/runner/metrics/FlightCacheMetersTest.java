package io.msgx.runner.metrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.record.FlightStamp;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FlightCacheMetersTest {

    @Test
    void theMetersFollowTheCache() {
        var registry = new SimpleMeterRegistry();
        var cache = FlightCache.holding(10);
        FlightCacheMeters.bind(registry, cache);
        var flight = new FlightState(FlightId.of("1001"), FlightStatus.ACTIVE, 2, null, 7, FlightFields.empty(),
                FlightLists.empty());

        cache.remember(List.of(flight));
        cache.stored(FlightStamp.of(flight));
        cache.stored(new FlightStamp(flight.flid(), 3, 8));

        assertThat(registry.get(FlightCacheMeters.HITS).functionCounter().count()).isEqualTo(1);
        assertThat(registry.get(FlightCacheMeters.MISSES).functionCounter().count()).isEqualTo(1);
        assertThat(registry.get(FlightCacheMeters.SIZE).gauge().value()).as("the changed flight was dropped").isZero();
    }
}
