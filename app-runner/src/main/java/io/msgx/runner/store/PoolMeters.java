package io.msgx.runner.store;

import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.PoolStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The meters of one {@link ReconnectingPool}, under HikariCP's own names ({@code hikaricp.connections.active{pool}},
 * ...), bound once and following whichever Hikari pool is live. Hikari's {@code MicrometerMetricsTrackerFactory}
 * registers a pool's meters when the pool starts and removes them when it closes: with a pool replaced after an outage
 * (the new one starts while the old one still holds the names, and the old one closes later) its gauges would stay on
 * the retired pool, then vanish. Here the gauges read the live pool at each scrape, and every pool's tracker records
 * into the same timers and counter.
 */
final class PoolMeters implements MetricsTrackerFactory {

    static final String TAG_POOL = "pool";

    private final String poolName;
    private volatile Recorders recorders;

    /** What the trackers record into once bound; until then (and without a registry) they record nothing. */
    private record Recorders(Timer acquire, Timer usage, Timer creation, Counter timeouts) {
    }

    PoolMeters(String poolName) {
        this.poolName = poolName;
    }

    /** Register the pool's meters; {@code live} is the live Hikari pool's statistics (null while it has none). */
    void bind(MeterRegistry registry, Supplier<HikariPoolMXBean> live, int maximumSize, int minimumIdle) {
        gauge(registry, "hikaricp.connections", "Connections in the pool, in use or idle", live,
                HikariPoolMXBean::getTotalConnections);
        gauge(registry, "hikaricp.connections.active", "Connections in use", live,
                HikariPoolMXBean::getActiveConnections);
        gauge(registry, "hikaricp.connections.idle", "Idle connections", live, HikariPoolMXBean::getIdleConnections);
        gauge(registry, "hikaricp.connections.pending", "Threads waiting for a connection", live,
                HikariPoolMXBean::getThreadsAwaitingConnection);
        gauge(registry, "hikaricp.connections.max", "The pool's maximum size", live, stats -> maximumSize);
        gauge(registry, "hikaricp.connections.min", "The pool's minimum idle connections", live, stats -> minimumIdle);
        recorders = new Recorders(
                Timer.builder("hikaricp.connections.acquire").description("Time to get a connection from the pool")
                        .tag(TAG_POOL, poolName).register(registry),
                Timer.builder("hikaricp.connections.usage").description("Time a connection was held before its return")
                        .tag(TAG_POOL, poolName).register(registry),
                Timer.builder("hikaricp.connections.creation").description("Time to open a new connection")
                        .tag(TAG_POOL, poolName).register(registry),
                Counter.builder("hikaricp.connections.timeout")
                        .description("Calls that waited the connection timeout and got no connection")
                        .tag(TAG_POOL, poolName).register(registry));
    }

    private void gauge(MeterRegistry registry, String name, String description, Supplier<HikariPoolMXBean> live,
                       ToIntFunction<HikariPoolMXBean> value) {
        Gauge.builder(name, () -> {
                    var stats = live.get();
                    return stats == null ? 0 : value.applyAsInt(stats);
                })
                .description(description).tag(TAG_POOL, poolName).strongReference(true).register(registry);
    }

    @Override
    public IMetricsTracker create(String name, PoolStats stats) {
        return new IMetricsTracker() {
            @Override
            public void recordConnectionCreatedMillis(long millis) {
                var bound = recorders;
                if (bound != null) {
                    bound.creation().record(millis, TimeUnit.MILLISECONDS);
                }
            }

            @Override
            public void recordConnectionAcquiredNanos(long nanos) {
                var bound = recorders;
                if (bound != null) {
                    bound.acquire().record(nanos, TimeUnit.NANOSECONDS);
                }
            }

            @Override
            public void recordConnectionUsageMillis(long millis) {
                var bound = recorders;
                if (bound != null) {
                    bound.usage().record(millis, TimeUnit.MILLISECONDS);
                }
            }

            @Override
            public void recordConnectionTimeout() {
                var bound = recorders;
                if (bound != null) {
                    bound.timeouts().increment();
                }
            }
        };
    }
}
