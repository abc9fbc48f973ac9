package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One endpoint: one exact path (or the paths {@link #serves} accepts) and one method. Answers 404 for another path
 * under the same context, 405 (with
 * {@code Allow}) for another method, 500 for a defect in {@link #serve}; always closes the exchange.
 */
abstract class Endpoint implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(Endpoint.class);

    static final String JSON = "application/json; charset=utf-8";

    private final String path;
    private final String method;

    Endpoint(String path, String method) {
        this.path = path;
        this.method = method;
    }

    String path() {
        return path;
    }

    /** Whether this endpoint answers {@code requestPath}; by default only its exact path. */
    boolean serves(String requestPath) {
        return path.equals(requestPath);
    }

    /** Answer one request for this path and method. */
    abstract void serve(HttpExchange exchange) throws IOException;

    @Override
    public final void handle(HttpExchange exchange) throws IOException {
        try {
            if (!serves(exchange.getRequestURI().getPath())) {
                NotFound.answer(exchange);
            } else if (!method.equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", method);
                send(exchange, 405, JSON, Json.error(exchange.getRequestMethod() + " is not allowed on " + path
                        + "; use " + method));
            } else {
                serve(exchange);
            }
        } catch (IOException e) {
            LOG.debug("{} {}: the connection failed while answering: {}", exchange.getRequestMethod(), path, e.toString());
        } catch (RuntimeException e) {
            LOG.error("{} {} failed with a defect; answered 500", exchange.getRequestMethod(), path, e);
            sendQuietly(exchange, 500, Json.error("internal error; see the service log"));
        } finally {
            exchange.close();
        }
    }

    /** Send a whole answer. A HEAD request gets the headers only. */
    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        var bytes = body.getBytes(StandardCharsets.UTF_8);
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", contentType);
        headers.set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head || bytes.length == 0 ? -1 : bytes.length);
        if (!head && bytes.length > 0) {
            try (var out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /**
     * Refuse with a JSON error without reading the body: {@code Connection: close}, so the unread body is not taken
     * for the next request.
     */
    static void refuseUnread(HttpExchange exchange, int status, String reason) throws IOException {
        exchange.getResponseHeaders().set("Connection", "close");
        send(exchange, status, JSON, Json.error(reason));
    }

    /** Send JSON when the headers have not gone out yet; a failure here only means the client left. */
    private static void sendQuietly(HttpExchange exchange, int status, String json) {
        try {
            send(exchange, status, JSON, json);
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not send the {} answer: {}", status, e.toString());
        }
    }

    /** Everything that is not one of the endpoints: 404 with the list of what exists. */
    static final class NotFound implements HttpHandler {

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            try {
                answer(exchange);
            } finally {
                exchange.close();
            }
        }

        static void answer(HttpExchange exchange) throws IOException {
            send(exchange, 404, JSON, Json.error("no such endpoint: " + exchange.getRequestURI().getPath()
                    + "; there are POST /cminmsgs/send, GET /health/live, GET /health/ready, GET /metrics,"
                    + " GET /reference/{TYPE} and GET /reference/{TYPE}/{KEY}"));
        }
    }
}
