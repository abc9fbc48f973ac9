package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.pipeline.pump.FifoHead;
import io.msgx.runner.embed.PipelineStatus;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /health/ready}: runs the {@link ReadinessProbe}; 200 when every check is UP, 503 otherwise, with
 * each check's status and reason as JSON. Takes at most about the probe's timeout.
 *
 * <p>Without a valid credential (any role) the body holds the status and each check's name and status only
 * ({@link ReadinessReport#toPublicJson()}): a reason may name a host, a user or a table, and the head a flight.
 *
 * <p>With one, the body also shows the head of the FIFO queue ({@code "head"}: its ID, kind, state, attempts, age and what
 * holds it; null when nothing is open), so the probe an orchestrator already calls tells an operator what blocks
 * the queue. The head does not decide readiness: a held head is a degraded pipeline, not one that cannot serve
 * (see {@code status}'s exit codes). A head that cannot be read shows {@code {"error": ...}} in its place.
 */
final class ReadinessEndpoint extends Endpoint {

    static final String PATH = "/health/ready";

    private final ReadinessProbe probe;
    private final Supplier<Optional<FifoHead>> head;
    private final AccessGate gate;

    ReadinessEndpoint(ReadinessProbe probe, Supplier<Optional<FifoHead>> head, AccessGate gate) {
        super(PATH, "GET");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.head = Objects.requireNonNull(head, "head");
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        var report = probe.probe();
        var body = gate.identify(exchange).isPresent() ? report.toJson(headJson()) : report.toPublicJson();
        send(exchange, report.ready() ? 200 : 503, JSON, body);
    }

    private String headJson() {
        try {
            return head.get().map(found -> Json.object(PipelineStatus.headFields(found))).orElse("null");
        } catch (RuntimeException e) {
            return Json.error("the FIFO head could not be read: " + e.getMessage());
        }
    }
}
