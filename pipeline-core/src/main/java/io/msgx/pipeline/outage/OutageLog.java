package io.msgx.pipeline.outage;

import org.slf4j.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What an operator reads about one service's outage, told once and not once a tick: a loop that retries every
 * 50–500 ms would otherwise write a warning each time. The first failure is a WARN with its reason and what the
 * loop does about it; while the outage lasts, a WARN again every {@link #REMINDER} (each retry in between is DEBUG);
 * the first success after it is an INFO saying how long the service was away.
 *
 * <p>One instance per loop and service; safe to share between threads.
 */
public final class OutageLog {

    /** How often a lasting outage is reported again. */
    public static final Duration REMINDER = Duration.ofMinutes(1);

    private final Logger log;
    private final String service;
    private final Clock clock;
    private Instant since;
    private Instant lastReported;

    /** {@code service} names what is away, e.g. {@code "Mailbox"} or {@code "Pipeline store"}. */
    public OutageLog(Logger log, String service, Clock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.service = Objects.requireNonNull(service, "service");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A call met the outage: {@code reason} is what failed, {@code consequence} what the loop does about it. */
    public synchronized void failed(String reason, String consequence) {
        var now = clock.instant();
        if (since == null) {
            since = now;
            lastReported = now;
            log.warn("{} unavailable; {}: {}", service, consequence, reason);
        } else if (!now.isBefore(lastReported.plus(REMINDER))) {
            lastReported = now;
            log.warn("{} still unavailable after {} s; {}: {}", service, Duration.between(since, now).toSeconds(),
                    consequence, reason);
        } else {
            log.debug("{} unavailable; {}: {}", service, consequence, reason);
        }
    }

    /** A call succeeded: ends the outage, if there was one. */
    public void recovered() {
        Instant began;
        Instant now;
        synchronized (this) {
            if (since == null) {
                return;
            }
            began = since;
            since = null;
            now = clock.instant();
        }
        log.info("{} available again after {} ms", service, Duration.between(began, now).toMillis());
    }

    /** True while the last call failed. */
    public synchronized boolean away() {
        return since != null;
    }
}
