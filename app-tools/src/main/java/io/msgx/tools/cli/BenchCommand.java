package io.msgx.tools.cli;

import io.msgx.runner.cli.ConfigOption;
import io.msgx.runner.cli.Main;
import io.msgx.tools.bench.Bench;
import io.msgx.tools.bench.BenchParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;

/** {@code bench}: digest rate, dispatch rate, live latency, memory, against the configured store, mailbox and Kafka. */
@Command(name = "bench", description = {
        "Measure the pipeline on the configured PostgreSQL, MySQL mailbox and Kafka: fill the mailbox with simulated "
                + "messages, time the digest to terminal and the outbox drain (small backlog, then N), the live "
                + "commit-to-ack latency, memory, and the bare-commit and raw-producer baselines.",
        "It FILLS AND WIPES the mailbox tables and the store schema: it refuses ground that holds data unless --reset."})
final class BenchCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Option(names = "--messages", defaultValue = "200000", description = "N, the full backlog (default ${DEFAULT-VALUE}).")
    long messages;

    @Option(names = "--small-backlog", defaultValue = "10000",
            description = "The small backlog digested first, for the cost comparison (default ${DEFAULT-VALUE}).")
    long smallBacklog;

    @Option(names = "--rate", defaultValue = "200", description = "Live load, messages per second (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--live-seconds", defaultValue = "60", description = "Live load duration (default ${DEFAULT-VALUE}).")
    long liveSeconds;

    @Option(names = "--baseline-seconds", defaultValue = "10",
            description = "Duration of the bare commit-rate baseline (default ${DEFAULT-VALUE}).")
    long baselineSeconds;

    @Option(names = "--producer-runs", defaultValue = "3",
            description = "Runs of the raw producer baseline; the median is the figure (default ${DEFAULT-VALUE}).")
    int producerRuns;

    @Option(names = "--reset", description = "Wipe the mailbox tables and the store schema if they hold data "
            + "(truncate; drop and re-migrate). Without it the bench refuses to touch data.")
    boolean reset;

    @Option(names = "--seed", defaultValue = "42", description = "Simulator seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--flights-per-day", defaultValue = "1000",
            description = "Operated flights per simulated day (default ${DEFAULT-VALUE}).")
    int flightsPerDay;

    @Option(names = "--rows-per-insert", defaultValue = "200",
            description = "Rows per multi-row INSERT when filling (default ${DEFAULT-VALUE}).")
    int rowsPerInsert;

    @Option(names = "--partitions", defaultValue = "3",
            description = "Partitions of topics the bench creates when missing (default ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--drain-timeout", defaultValue = "21600",
            description = "Seconds one digest may take before the bench gives up on it (default ${DEFAULT-VALUE}).")
    long drainTimeoutSeconds;

    @Option(names = "--json-out", defaultValue = "bench-result.json", paramLabel = "FILE",
            description = "Where the JSON report goes (default ${DEFAULT-VALUE}).")
    Path jsonOut;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        var out = spec.commandLine().getOut();
        Bench bench;
        try {
            var parameters = new BenchParameters(messages, smallBacklog, rate, liveSeconds, baselineSeconds, producerRuns,
                    reset, seed, flightsPerDay, rowsPerInsert, partitions, drainTimeoutSeconds, jsonOut.toString());
            bench = new Bench(config.load(), parameters, Clock.systemUTC(), out);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return Main.USAGE;
        }
        try {
            var report = bench.run();
            report.print(out);
            report.writeJson(jsonOut);
            out.println("JSON report: " + jsonOut.toAbsolutePath());
            out.flush();
            return 0;
        } catch (Bench.RefusedException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return Main.REFUSED;
        }
    }
}
