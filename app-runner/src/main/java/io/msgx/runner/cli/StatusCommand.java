package io.msgx.runner.cli;

import io.msgx.runner.config.ConfigException;
import io.msgx.runner.config.ConfigReader;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.embed.MsgExchange;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "status", description = {
        "Where the pipeline stands: the FIFO head and what holds it, watermark, hole, backlog, failures, events,"
                + " backfill.",
        "Exits 0 when healthy, 1 when degraded (the head held or older than --max-head-age, dead events, abandoned"
                + " marks), 2 when down (the store or the mailbox cannot be read): a monitoring check as it stands."})
final class StatusCommand implements Callable<Integer> {

    /** Exit codes: a monitoring check's OK, WARNING and CRITICAL. */
    static final int HEALTHY = 0;
    static final int DEGRADED = 1;
    static final int DOWN = 2;

    @Mixin
    ConfigOption config;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--watch", description = "Refresh every --interval until interrupted, with the drain rate and an ETA.")
    boolean watch;

    @Option(names = "--interval", defaultValue = "2s", description = "Refresh period of --watch (default ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--max-head-age", defaultValue = "5m",
            description = "A head open longer than this makes the status degraded (default ${DEFAULT-VALUE}).")
    String maxHeadAge;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        var out = spec.commandLine().getOut();
        var headAgeLimit = parse(maxHeadAge, "--max-head-age");
        try (var exchange = config.open()) {
            var status = readStatus(exchange);
            int health = print(out, status, headAgeLimit, null);
            if (!watch) {
                return health;
            }
            var period = parse(interval, "--interval");
            var previous = status;
            var previousAt = Instant.now();
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(period.toMillis());
                var now = Instant.now();
                var current = readStatus(exchange);
                Double rate = null;
                if (previous instanceof Read before && current instanceof Read after) {
                    double seconds = Math.max(0.001, Duration.between(previousAt, now).toMillis() / 1000.0);
                    rate = (before.status().backlog() - after.status().backlog()) / seconds;
                }
                health = print(out, current, headAgeLimit, rate);
                previous = current;
                previousAt = now;
            }
            return health;
        } catch (ConfigException e) {
            throw e;
        } catch (RuntimeException e) {
            return print(out, new Unreadable("cannot open the pipeline: " + e.getMessage()), headAgeLimit, null);
        }
    }

    /** What one look at the pipeline found: its status, or why it could not be read (the pipeline is down). */
    private sealed interface Look permits Read, Unreadable {
    }

    private record Read(PipelineStatus status) implements Look {
    }

    private record Unreadable(String reason) implements Look {
    }

    /** The status, and the mailbox asked once: a pipeline that cannot read either is down, whatever its backlog. */
    private static Look readStatus(MsgExchange exchange) {
        PipelineStatus status;
        try {
            status = exchange.status();
        } catch (RuntimeException e) {
            return new Unreadable("store unreachable: " + e.getMessage());
        }
        try {
            exchange.mailbox().maxId();
        } catch (RuntimeException e) {
            return new Unreadable("mailbox unreachable: " + e.getMessage());
        }
        return new Read(status);
    }

    /** Print one look; returns its exit code. */
    private int print(PrintWriter out, Look look, Duration headAgeLimit, Double drainPerSecond) {
        if (look instanceof Unreadable down) {
            if (json) {
                var map = new LinkedHashMap<String, Object>();
                map.put("health", "DOWN");
                map.put("problems", List.of(down.reason()));
                JsonOutput.print(out, map);
            } else {
                out.printf("health               DOWN: %s%n%n", down.reason());
                out.flush();
            }
            return DOWN;
        }
        var status = ((Read) look).status();
        var problems = status.problems(headAgeLimit);
        if (json) {
            var map = asMap(status);
            map.put("health", problems.isEmpty() ? "HEALTHY" : "DEGRADED");
            map.put("problems", problems);
            JsonOutput.print(out, map);
            return problems.isEmpty() ? HEALTHY : DEGRADED;
        }
        var head = status.head();
        out.printf("head                 %s%n", head == null ? "none (nothing open)" : head.summary());
        if (head != null && head.lastError() != null) {
            out.printf("  last error         %s%n", head.lastError());
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
        out.printf("health               %s%n", problems.isEmpty() ? "HEALTHY" : "DEGRADED");
        problems.forEach(problem -> out.printf("  - %s%n", problem));
        out.println();
        out.flush();
        return problems.isEmpty() ? HEALTHY : DEGRADED;
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
        map.put("head", status.head() == null ? null : PipelineStatus.headFields(status.head()));
        return map;
    }

    /** A duration option ({@code 2s}, {@code 5m}, {@code PT1M}), read as the configuration reads durations. */
    private static Duration parse(String text, String option) {
        var settings = new ConfigReader(ConfigSource.of(Map.of(option, text)));
        var duration = settings.duration(option, Duration.ofSeconds(2));
        settings.verify();
        return duration;
    }
}
