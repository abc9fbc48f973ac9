package io.msgx.runner.cli;

import io.msgx.runner.embed.PipelineStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "status", description = "Where the pipeline stands: watermark, hole, backlog, failures, events, backfill.")
final class StatusCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--watch", description = "Refresh every --interval until interrupted, with the drain rate and an ETA.")
    boolean watch;

    @Option(names = "--interval", defaultValue = "2s", description = "Refresh period of --watch (default ${DEFAULT-VALUE}).")
    String interval;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        var out = spec.commandLine().getOut();
        try (var exchange = config.open()) {
            var status = exchange.status();
            print(out, status, null);
            if (!watch) {
                return 0;
            }
            var period = parse(interval);
            var previous = status;
            var previousAt = Instant.now();
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(period.toMillis());
                var now = Instant.now();
                var current = exchange.status();
                double seconds = Math.max(0.001, Duration.between(previousAt, now).toMillis() / 1000.0);
                double rate = (previous.backlog() - current.backlog()) / seconds;
                print(out, current, rate);
                previous = current;
                previousAt = now;
            }
            return 0;
        }
    }

    private void print(PrintWriter out, PipelineStatus status, Double drainPerSecond) {
        if (json) {
            JsonOutput.print(out, asMap(status));
            return;
        }
        out.printf("watermark            %d%n", status.watermark());
        out.printf("hole                 %s%n", status.holeSince() == null ? "none" : "since " + status.holeSince()
                + " (" + Duration.between(status.holeSince(), Instant.now()).toSeconds() + " s)");
        out.printf("backlog              %d open, oldest %d s%n", status.backlog(), status.oldestUnprocessedSeconds());
        out.printf("failed / dead        %d / %d%n", status.failed(), status.dead());
        out.printf("events               %d pending, %d dead%n", status.pendingEvents(), status.deadEvents());
        out.printf("backfill             %d owed, %d abandoned%n", status.owedBackfills(), status.abandonedBackfills());
        if (drainPerSecond != null) {
            var eta = drainPerSecond > 0 ? Duration.ofSeconds((long) (status.backlog() / drainPerSecond)).toString()
                    : status.backlog() == 0 ? "drained" : "not draining";
            out.printf("draining             %.1f msg/s, ETA %s%n", drainPerSecond, eta);
        }
        out.println();
        out.flush();
    }

    static Map<String, Object> asMap(PipelineStatus status) {
        var map = new LinkedHashMap<String, Object>();
        map.put("watermark", status.watermark());
        map.put("holeSince", status.holeSince());
        map.put("backlog", status.backlog());
        map.put("oldestUnprocessedSeconds", status.oldestUnprocessedSeconds());
        map.put("failed", status.failed());
        map.put("dead", status.dead());
        map.put("pendingEvents", status.pendingEvents());
        map.put("deadEvents", status.deadEvents());
        map.put("owedBackfills", status.owedBackfills());
        map.put("abandonedBackfills", status.abandonedBackfills());
        return map;
    }

    private static Duration parse(String text) {
        var config = io.msgx.runner.config.ConfigSource.of(Map.of("msgx.jobs.standby-poll", text));
        return new io.msgx.runner.config.Settings(config).duration("msgx.jobs.standby-poll", Duration.ofSeconds(2));
    }
}
