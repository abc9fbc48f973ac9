package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.util.Objects;

/** {@code GET /metrics}: every meter of the registry in Prometheus text format 0.0.4. */
final class MetricsEndpoint extends Endpoint {

    static final String PATH = "/metrics";
    /** The Prometheus text exposition format, as {@link PrometheusMeterRegistry#scrape()} writes it. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;

    MetricsEndpoint(PrometheusMeterRegistry registry) {
        super(PATH, "GET");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        send(exchange, 200, CONTENT_TYPE, registry.scrape(CONTENT_TYPE));
    }
}
