package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.runner.config.Keys;

import java.io.IOException;
import java.util.Objects;

/**
 * {@code GET /metrics}: every meter of the registry in Prometheus text format 0.0.4; open, or for a credential with
 * the role {@code metrics} when {@value Keys#HTTP_METRICS_OPEN} is false. Counts and durations only: no
 * message content, no host or user name.
 */
final class MetricsEndpoint extends Endpoint {

    static final String PATH = "/metrics";
    /** The Prometheus text exposition format, as {@link PrometheusMeterRegistry#scrape()} writes it. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final AccessGate gate;
    private final boolean open;

    /** @param open true: anyone may scrape; false: a credential with the role {@code metrics} is needed */
    MetricsEndpoint(PrometheusMeterRegistry registry, AccessGate gate, boolean open) {
        super(PATH, "GET");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.open = open;
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        if (!open && gate.check(exchange, Role.METRICS, "metrics scrape") instanceof AccessGate.Access.Refused refused) {
            AccessGate.refuse(exchange, refused);
            return;
        }
        send(exchange, 200, CONTENT_TYPE, registry.scrape(CONTENT_TYPE));
    }
}
