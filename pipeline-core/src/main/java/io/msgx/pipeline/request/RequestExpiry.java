package io.msgx.pipeline.request;

import io.msgx.pipeline.port.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Closes requests nobody answered: a request still {@code PENDING} or {@code SENT} this long after it was
 * registered ({@code msgx.requests.timeout}) becomes {@code EXPIRED}, and an answer arriving later is not
 * applied.
 */
public final class RequestExpiry {

    private static final Logger log = LoggerFactory.getLogger(RequestExpiry.class);

    private final PipelineStore store;
    private final Duration timeout;
    private final Clock clock;

    public RequestExpiry(PipelineStore store, Duration timeout, Clock clock) {
        this.store = store;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("msgx.requests.timeout must be positive, got " + timeout);
        }
        this.clock = clock;
    }

    /** Expire what has waited too long; returns how many. */
    public int runOnce() {
        var now = clock.instant();
        int expired = store.requests().expireOpenBefore(now.minus(timeout), now);
        if (expired > 0) {
            log.warn("{} request(s) to the AODB unanswered after {}: EXPIRED", expired, timeout);
        }
        return expired;
    }
}
