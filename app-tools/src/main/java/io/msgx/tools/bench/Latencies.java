package io.msgx.tools.bench;

import java.util.Arrays;
import java.util.List;

/** Percentiles of a set of latencies given in microseconds, reported in milliseconds (nearest rank). */
public record Latencies(int count, double p50Millis, double p99Millis, double maxMillis, double meanMillis) {

    static Latencies of(List<Long> micros) {
        if (micros.isEmpty()) {
            return new Latencies(0, 0, 0, 0, 0);
        }
        var sorted = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Latencies(sorted.length, percentile(sorted, 0.50) / 1000.0, percentile(sorted, 0.99) / 1000.0,
                sorted[sorted.length - 1] / 1000.0, Arrays.stream(sorted).average().orElse(0) / 1000.0);
    }

    /** Nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
