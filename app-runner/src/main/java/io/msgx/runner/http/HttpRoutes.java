package io.msgx.runner.http;

import com.sun.net.httpserver.HttpHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The HTTP side's one Jetty handler: hands each request to the {@link HttpHandler} of the longest route that
 * prefixes its path (the rule of {@code com.sun.net.httpserver} contexts, which the endpoints were written for), on
 * one of Jetty's threads, and counts the requests being served, so that {@link HttpApi#stop(Duration)} can wait for
 * them and no longer. Once draining, a new request gets 503 ("shutting down", {@code Connection: close}).
 */
final class HttpRoutes extends Handler.Abstract {

    private static final Logger LOG = LoggerFactory.getLogger(HttpRoutes.class);

    /** Longest prefix first, so the first that matches is the route. */
    private final Map<String, HttpHandler> routes = new TreeMap<>(
            Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int inFlight;
    private boolean draining;

    /** {@code handler} answers every path that starts with {@code prefix} and no longer route does. */
    HttpRoutes route(String prefix, HttpHandler handler) {
        routes.put(prefix, handler);
        return this;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        boolean served = enter();
        try {
            try (var exchange = new JettyExchange(request, response)) {
            if (served) {
                handlerFor(request.getHttpURI().getPath()).handle(exchange);
            } else {
                exchange.getResponseHeaders().set("Connection", "close");
                exchange.getResponseHeaders().set("Retry-After", "1");
                Endpoint.send(exchange, 503, Endpoint.JSON, Json.error("the service is shutting down; retry"
                        + " against another instance or after it restarted"));
            }
            }
            callback.succeeded();
        } catch (Throwable e) {
            LOG.debug("{} {}: the answer could not be completed: {}", request.getMethod(),
                    request.getHttpURI().getPath(), e.toString());
            callback.failed(e);
        } finally {
            if (served) {
                exit();
            }
        }
        return true;
    }

    private HttpHandler handlerFor(String path) {
        var target = path == null ? "/" : path;
        for (var route : routes.entrySet()) {
            if (target.startsWith(route.getKey())) {
                return route.getValue();
            }
        }
        return new Endpoint.NotFound();
    }

    private boolean enter() {
        lock.lock();
        try {
            if (draining) {
                return false;
            }
            inFlight++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void exit() {
        lock.lock();
        try {
            if (--inFlight == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Refuse new requests from now on and wait up to {@code grace} for those running; true when none is left. */
    boolean drain(Duration grace) throws InterruptedException {
        long remaining = Math.max(0, grace.toNanos());
        lock.lock();
        try {
            draining = true;
            while (inFlight > 0) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = idle.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
