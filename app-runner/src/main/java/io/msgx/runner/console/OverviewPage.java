package io.msgx.runner.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;
import io.msgx.runner.jobs.JobRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code /console/} and {@code /console/api/overview}: the pipeline at a glance (watermark and lag, hole, backlog,
 * counts, role, throughput), as cards that {@code console.js} refreshes from the JSON every 5 s.
 */
final class OverviewPage implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Console.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What {@code overview.jte} shows: the cards' texts and warnings by key, the sparkline's points. */
    record Model(Frame frame, Map<String, String> display, Map<String, Boolean> warn, String sparkPoints) {

        String value(String key) {
            return display.get(key);
        }

        boolean warns(String key) {
            return Boolean.TRUE.equals(warn.get(key));
        }
    }

    private final MsgExchange exchange;
    private final Templates templates;
    private final Throughput throughput;
    private final ScheduledExecutorService sampler;

    OverviewPage(MsgExchange exchange, Templates templates) {
        this.exchange = exchange;
        this.templates = templates;
        this.throughput = new Throughput(exchange.meterRegistry(), exchange.clock());
        this.sampler = Executors.newSingleThreadScheduledExecutor(JobRunner.daemonThread("console-sampler"));
        sampler.scheduleAtFixedRate(() -> {
            try {
                throughput.sample();
            } catch (RuntimeException e) {
                log.debug("Console throughput sample failed: {}", e.toString());
            }
        }, 0, 5, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    @SuppressWarnings("unchecked")
    Answer page(Call call) {
        var data = overview();
        return Answer.html(200, templates.render("overview", new Model(call.frame("Overview"),
                (Map<String, String>) data.get("display"), (Map<String, Boolean>) data.get("warn"),
                sparkPoints((long[]) data.get("throughput")))));
    }

    Answer api(Call call) {
        try {
            return new Answer(200, "application/json; charset=utf-8", JSON.writeValueAsString(overview()));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Everything the overview shows: {@code display} (texts by key), {@code warn} (keys to flag), {@code throughput}. */
    Map<String, Object> overview() {
        throughput.sample();
        var now = exchange.clock().instant();
        var status = exchange.status();
        var maxCommitDelay = exchange.config().inbox().maxCommitDelay();
        Long maxId = null;
        String mailboxProblem = null;
        try {
            var max = exchange.mailbox().maxId();
            maxId = max.isPresent() ? max.getAsLong() : null;
        } catch (RuntimeException e) {
            mailboxProblem = "mailbox unreachable";
        }
        Long lag = maxId == null ? null : Math.max(0, maxId - status.watermark());
        var holeAge = status.holeSince() == null ? null : Duration.between(status.holeSince(), now);
        var display = new LinkedHashMap<String, String>();
        var warn = new LinkedHashMap<String, Boolean>();
        var head = status.head();
        display.put("head", head == null ? "none: nothing open" : head.summary());
        display.put("headError", head == null || head.lastError() == null ? "–" : head.lastError());
        display.put("role", Boolean.TRUE.equals(status.active()) ? "active" : "standby");
        display.put("watermark", Long.toString(status.watermark()));
        display.put("lag", lag == null ? (mailboxProblem == null ? "0" : mailboxProblem) : lag.toString());
        display.put("maxId", maxId == null ? "–" : maxId.toString());
        display.put("hole", holeAge == null ? "none" : "at " + (status.watermark() + 1) + " for " + Html.age(holeAge));
        display.put("maxCommitDelay", Html.age(maxCommitDelay));
        display.put("backlog", Long.toString(status.backlog()));
        display.put("oldest", status.backlog() == 0 ? "–" : Html.age(Duration.ofSeconds(status.oldestUnprocessedSeconds())));
        display.put("failed", Long.toString(status.failed()));
        display.put("dead", Long.toString(status.dead()));
        display.put("pendingEvents", Long.toString(status.pendingEvents()));
        display.put("deadEvents", Long.toString(status.deadEvents()));
        display.put("owedBackfills", Long.toString(status.owedBackfills()));
        display.put("abandonedBackfills", Long.toString(status.abandonedBackfills()));
        var series = throughput.perMinute();
        long lastHour = 0;
        for (long n : series) {
            lastHour += n;
        }
        display.put("lastHour", Long.toString(lastHour));
        display.put("at", Html.time(now));
        warn.put("head", head != null && head.blocked());
        warn.put("headError", head != null && head.blocked());
        warn.put("lag", mailboxProblem != null);
        warn.put("hole", holeAge != null && holeAge.compareTo(maxCommitDelay) > 0);
        warn.put("dead", status.dead() > 0);
        warn.put("failed", status.failed() > 0);
        warn.put("deadEvents", status.deadEvents() > 0);
        warn.put("abandonedBackfills", status.abandonedBackfills() > 0);
        warn.put("role", !Boolean.TRUE.equals(status.active()));
        var result = new LinkedHashMap<String, Object>();
        result.put("display", display);
        result.put("warn", warn);
        result.put("throughput", series);
        result.put("watermark", status.watermark());
        result.put("holeSince", status.holeSince() == null ? null : status.holeSince().toString());
        result.put("backlog", status.backlog());
        result.put("oldestUnprocessedSeconds", status.oldestUnprocessedSeconds());
        result.put("failed", status.failed());
        result.put("dead", status.dead());
        result.put("pendingEvents", status.pendingEvents());
        result.put("deadEvents", status.deadEvents());
        result.put("abandonedBackfills", status.abandonedBackfills());
        result.put("active", Boolean.TRUE.equals(status.active()));
        result.put("head", head == null ? null : PipelineStatus.headFields(head));
        return result;
    }

    /** The sparkline's polyline on a 600×80 box; the same formula as console.js. */
    static String sparkPoints(long[] series) {
        long max = 1;
        for (long n : series) {
            max = Math.max(max, n);
        }
        var points = new StringBuilder();
        for (int i = 0; i < series.length; i++) {
            double x = series.length == 1 ? 0 : i * 600.0 / (series.length - 1);
            double y = 78 - series[i] * 74.0 / max;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        return points.toString().strip();
    }
}
