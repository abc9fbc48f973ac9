package io.msgx.tools.bench;

import java.time.Duration;

/**
 * What one bench run does; the command's options.
 *
 * @param messages        N, the full backlog digested (and the number of records the producer baseline sends is
 *                        what that digest delivered)
 * @param smallBacklog    the small backlog digested first, for the cost-per-message comparison
 * @param rate            live load: messages per second fed while the pipeline runs idle
 * @param liveSeconds     live load: how long
 * @param baselineSeconds how long the bare commit-rate baseline runs
 * @param producerRuns    how many times the raw producer baseline runs; its median is the figure (one run swung
 *                        from 132k to 272k records/s between benches on the same machine)
 * @param reset           wipe the mailbox tables and our schema if they hold anything (else the bench refuses)
 * @param seed            the simulator's seed (day {@code i} uses {@code seed + i})
 * @param flightsPerDay   operated flights per simulated day
 * @param rowsPerInsert   rows per multi-row {@code INSERT} when filling the mailbox
 * @param partitions      partitions of the topics the bench creates when missing (pipeline and bench topics)
 * @param drainTimeout    the longest one digest may take before the bench gives up on it
 * @param jsonOut         where the JSON report goes
 */
public record BenchParameters(long messages, long smallBacklog, double rate, long liveSeconds, long baselineSeconds,
                              int producerRuns, boolean reset, long seed, int flightsPerDay, int rowsPerInsert, int partitions,
                              long drainTimeoutSeconds, String jsonOut) {

    public BenchParameters {
        positive("--messages", messages);
        positive("--small-backlog", smallBacklog);
        positive("--live-seconds", liveSeconds + 1);
        positive("--baseline-seconds", baselineSeconds);
        positive("--producer-runs", producerRuns);
        positive("--flights-per-day", flightsPerDay);
        positive("--rows-per-insert", rowsPerInsert);
        positive("--partitions", partitions);
        positive("--drain-timeout", drainTimeoutSeconds);
        if (!(rate > 0)) {
            throw new IllegalArgumentException("--rate must be positive, got " + rate);
        }
        if (flightsPerDay > 20_000) {
            throw new IllegalArgumentException("--flights-per-day must be at most 20000, got " + flightsPerDay);
        }
        if (jsonOut == null || jsonOut.isBlank()) {
            throw new IllegalArgumentException("--json-out must name a file");
        }
    }

    public Duration drainTimeout() {
        return Duration.ofSeconds(drainTimeoutSeconds);
    }

    private static void positive(String option, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be positive, got " + value);
        }
    }
}
