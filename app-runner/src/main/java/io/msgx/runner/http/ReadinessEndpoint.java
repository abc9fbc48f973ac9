package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.util.Objects;

/**
 * {@code GET /health/ready}: runs the {@link ReadinessProbe}; 200 when every check is UP, 503 otherwise, with
 * each check's status and reason as JSON. Takes at most about the probe's timeout.
 */
final class ReadinessEndpoint extends Endpoint {

    static final String PATH = "/health/ready";

    private final ReadinessProbe probe;

    ReadinessEndpoint(ReadinessProbe probe) {
        super(PATH, "GET");
        this.probe = Objects.requireNonNull(probe, "probe");
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        var report = probe.probe();
        send(exchange, report.ready() ? 200 : 503, JSON, report.toJson());
    }
}
