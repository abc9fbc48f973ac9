package io.msgx.runner.http;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each readiness check's last answer as the gauge {@value #NAME}{@code {check}}: 1 up, 0 down, absent (NaN) before
 * the first probe. A daemon thread ({@code msgx-check-gauges}) probes every {@link #PERIOD} while the HTTP side runs,
 * so the alerts on an unreachable store, mailbox or broker, or on stuck intake, fire whether or not an orchestrator
 * calls {@code /health/ready}. The probe bounds every check by its timeout, so a hanging dependency cannot stall it.
 */
final class CheckGauges implements AutoCloseable {

    static final String NAME = "msgx.health.check.up";
    static final Duration PERIOD = Duration.ofSeconds(15);

    private final ReadinessProbe probe;
    private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    private ScheduledExecutorService thread;

    CheckGauges(ReadinessProbe probe, List<String> checkNames, MeterRegistry registry) {
        this.probe = probe;
        for (var name : checkNames) {
            var answer = new AtomicInteger(-1);
            answers.put(name, answer);
            Gauge.builder(NAME, answer, value -> value.get() < 0 ? Double.NaN : value.get())
                    .description("1 when the readiness check answered up at its last probe (every 15 s), 0 when down")
                    .tag("check", name).strongReference(true).register(registry);
        }
    }

    /** Probe at once, then every {@link #PERIOD}, until {@link #close()}. */
    synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            var daemon = new Thread(runnable, "msgx-check-gauges");
            daemon.setDaemon(true);
            return daemon;
        });
        thread.scheduleWithFixedDelay(this::refresh, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Probe once and publish every check's answer. */
    void refresh() {
        for (var status : probe.probe().checks()) {
            var answer = answers.get(status.name());
            if (answer != null) {
                answer.set(status.result().isUp() ? 1 : 0);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
