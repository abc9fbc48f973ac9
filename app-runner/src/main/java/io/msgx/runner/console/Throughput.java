package io.msgx.runner.console;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;

import java.time.Clock;

/**
 * Messages ended per minute over the last hour, for the overview's sparkline: an in-memory ring of 60 per-minute
 * buckets fed by sampling this instance's {@value MicrometerPipelineMetrics#MESSAGES_ENDED} counters (every tag:
 * SUCCEEDED, SKIPPED and DEAD). It counts what <i>this</i> instance processed since it started: empty after a
 * restart, flat on a standby. PROC_STATE is not queried for it, so the overview costs the store nothing more.
 */
final class Throughput {

    static final int MINUTES = 60;

    private final MeterRegistry registry;
    private final Clock clock;
    private final long[] counts = new long[MINUTES];
    private final long[] minuteOf = new long[MINUTES];
    private double lastTotal = Double.NaN;

    Throughput(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        java.util.Arrays.fill(minuteOf, Long.MIN_VALUE);
    }

    /** Add what ended since the last sample to the current minute. */
    synchronized void sample() {
        double total = registry.find(MicrometerPipelineMetrics.MESSAGES_ENDED).counters().stream()
                .mapToDouble(Counter::count).sum();
        long minute = Math.floorDiv(clock.millis(), 60_000L);
        int slot = (int) Math.floorMod(minute, (long) MINUTES);
        if (minuteOf[slot] != minute) {
            minuteOf[slot] = minute;
            counts[slot] = 0;
        }
        if (!Double.isNaN(lastTotal) && total > lastTotal) {
            counts[slot] += Math.round(total - lastTotal);
        }
        lastTotal = total;
    }

    /** The last {@value #MINUTES} minutes, oldest first, the current (partial) minute last. */
    synchronized long[] perMinute() {
        long now = Math.floorDiv(clock.millis(), 60_000L);
        var series = new long[MINUTES];
        for (int i = 0; i < MINUTES; i++) {
            long minute = now - (MINUTES - 1) + i;
            int slot = (int) Math.floorMod(minute, (long) MINUTES);
            series[i] = minuteOf[slot] == minute ? counts[slot] : 0;
        }
        return series;
    }
}
