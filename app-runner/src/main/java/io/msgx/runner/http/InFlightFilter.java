package io.msgx.runner.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the exchanges being served, so {@link HttpApi#stop(Duration)} can wait for them and no longer; once
 * draining, a new request gets 503 ("shutting down", {@code Connection: close}) instead of being served.
 */
final class InFlightFilter extends Filter {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int inFlight;
    private boolean draining;

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        boolean refuse;
        lock.lock();
        try {
            refuse = draining;
            if (!refuse) {
                inFlight++;
            }
        } finally {
            lock.unlock();
        }
        if (refuse) {
            exchange.getResponseHeaders().set("Connection", "close");
            exchange.getResponseHeaders().set("Retry-After", "1");
            try {
                Endpoint.send(exchange, 503, Endpoint.JSON, Json.error("the service is shutting down; retry"
                        + " against another instance or after it restarted"));
            } finally {
                exchange.close();
            }
            return;
        }
        try {
            chain.doFilter(exchange);
        } finally {
            lock.lock();
            try {
                if (--inFlight == 0) {
                    idle.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Refuse new exchanges from now on and wait up to {@code grace} for those running; true when none is left. */
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

    @Override
    public String description() {
        return "counts exchanges in flight for a graceful stop";
    }
}
