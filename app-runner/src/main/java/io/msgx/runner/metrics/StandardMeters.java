package io.msgx.runner.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The meters every JVM service shows, bound once for the life of a {@code MsgExchange} (docs/operations.md, Metrics):
 * Micrometer's JVM binders (memory, GC, threads, class loading, JVM info), its process binders (CPU, uptime, open
 * files), the build ({@value #BUILD_INFO}) and the instance's role ({@value #INSTANCE_ACTIVE}). Closing it stops
 * listening to the garbage collector; the meters stay registered with their last values.
 */
public final class StandardMeters implements AutoCloseable {

    public static final String BUILD_INFO = "msgx.build.info";
    public static final String INSTANCE_ACTIVE = "msgx.instance.active";

    private final JvmGcMetrics gc;

    private StandardMeters(JvmGcMetrics gc) {
        this.gc = gc;
    }

    /**
     * Bind them to {@code registry}: the build's {@code version} and {@code commit}, and {@code active}, which says
     * whether this instance holds the lease and runs the pipeline (1) or waits as a hot standby (0).
     */
    public static StandardMeters bind(MeterRegistry registry, String version, String commit, BooleanSupplier active) {
        Objects.requireNonNull(active, "active");
        new JvmMemoryMetrics().bindTo(registry);
        var gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        Gauge.builder(BUILD_INFO, () -> 1)
                .description("This build: always 1, its version, commit and Java runtime in the tags")
                .tag("version", version).tag("commit", commit)
                .tag("java_version", System.getProperty("java.runtime.version", System.getProperty("java.version")))
                .strongReference(true).register(registry);
        Gauge.builder(INSTANCE_ACTIVE, () -> active.getAsBoolean() ? 1 : 0)
                .description("1 while this instance holds the store's lease and runs the pipeline, 0 while it waits "
                        + "as a hot standby (or has stopped)")
                .strongReference(true).register(registry);
        return new StandardMeters(gc);
    }

    @Override
    public void close() {
        gc.close();
    }
}
