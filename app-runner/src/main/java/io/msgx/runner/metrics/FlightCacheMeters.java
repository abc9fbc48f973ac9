package io.msgx.runner.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.pipeline.pump.FlightCache;

/** The pump's {@link FlightCache} (D-39) as meters: how often a needed flight was found in it, and its size. */
public final class FlightCacheMeters {

    public static final String HITS = "msgx.pipeline.flight_cache.hits";
    public static final String MISSES = "msgx.pipeline.flight_cache.misses";
    public static final String SIZE = "msgx.pipeline.flight_cache.size";

    private FlightCacheMeters() {
    }

    /** Register the meters of {@code cache}, once for the life of {@code registry}. */
    public static void bind(MeterRegistry registry, FlightCache cache) {
        FunctionCounter.builder(HITS, cache, FlightCache::hits)
                .description("Flights a transaction took from the flight cache: their stored stamp matched")
                .baseUnit("flights").register(registry);
        FunctionCounter.builder(MISSES, cache, FlightCache::misses)
                .description("Flights a transaction read whole: not cached, or changed since they were")
                .baseUnit("flights").register(registry);
        Gauge.builder(SIZE, cache, FlightCache::size)
                .description("Flights held in the flight cache")
                .baseUnit("flights").strongReference(true).register(registry);
    }
}
