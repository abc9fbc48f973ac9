package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;

/** {@code GET /health/live}: 200 {@code {"status":"UP"}} while the process answers at all. */
final class LivenessEndpoint extends Endpoint {

    static final String PATH = "/health/live";

    LivenessEndpoint() {
        super(PATH, "GET");
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        send(exchange, 200, JSON, Json.object().put("status", "UP").toString());
    }
}
