package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.runner.jobs.LivenessReport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code GET /health/live}: 200 {@code {"status":"UP"}} while every loop of the process beats; 503
 * {@code {"status":"DOWN","stale":[...],"fatal":...}} naming each stale loop, its last sign of life and how long it
 * may be silent, when one stopped beating or met a fatal error (D-70). Asks nothing of the databases or Kafka: a
 * service manager restarts a process that is not live, and an outage of a database is no reason to restart it (that
 * is readiness).
 */
final class LivenessEndpoint extends Endpoint {

    static final String PATH = "/health/live";

    private final Supplier<LivenessReport> liveness;
    private final AccessGate gate;

    LivenessEndpoint(Supplier<LivenessReport> liveness, AccessGate gate) {
        super(PATH, "GET");
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        var report = liveness.get();
        boolean known = report.live() || gate.identify(exchange).isPresent();
        send(exchange, report.live() ? 200 : 503, JSON, known ? toJson(report) : publicJson(report));
    }

    /** For a caller without a credential: the status and the stale loops' names; no fatal error's text (D-146). */
    static String publicJson(LivenessReport report) {
        var json = Json.object().put("status", report.live() ? "UP" : "DOWN");
        if (!report.stale().isEmpty()) {
            json.putRaw("stale", Json.array(report.stale().stream()
                    .map(one -> Json.object().put("job", one.job()).toString()).toList()));
        }
        return json.toString();
    }

    static String toJson(LivenessReport report) {
        var json = Json.object().put("status", report.live() ? "UP" : "DOWN");
        if (!report.stale().isEmpty()) {
            var stale = new ArrayList<String>();
            for (var one : report.stale()) {
                var item = Json.object().put("job", one.job()).put("lastSign", one.lastSign().toString())
                        .put("silentSeconds", one.silentFor().toSeconds()).put("allowedSeconds", one.allowed().toSeconds());
                if (one.runningSince() != null) {
                    item.put("runningSince", one.runningSince().toString());
                }
                stale.add(item.toString());
            }
            json.putRaw("stale", Json.array(stale));
        }
        if (report.fatal() != null) {
            json.put("fatal", report.fatal());
        }
        return json.toString();
    }
}
