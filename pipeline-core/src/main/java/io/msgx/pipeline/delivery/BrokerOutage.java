package io.msgx.pipeline.delivery;

import io.msgx.pipeline.outage.OutageLog;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The broker away (D-66), as the dispatcher sees it: whether a round's answers tell of an outage ({@link #outageIn}),
 * the pause before the broker is tried again, and the outage as operators read it (one WARN when it starts, reminded
 * every minute, one INFO when a send goes through again). Touched by the dispatching thread only.
 */
final class BrokerOutage {

    /**
     * The longest pause between two tries of a broker that is away (D-66). A try already waits the sink's own bound
     * while the broker does not answer (the producer's {@code max-block} for its metadata, the delivery timeout for a
     * record), so the pause only keeps a sink that fails at once (a closed producer, errors answered quickly) from
     * spinning; the retry policy's tiers, which grow to half an hour for a record that keeps being refused, would keep
     * the whole outbox waiting long after the broker is back.
     */
    static final Duration MAX_OUTAGE_BACKOFF = Duration.ofMillis(250);

    private final Clock clock;
    /** The broker's outage as operators read it: one WARN when it starts, one INFO when it ends. */
    private final OutageLog outageLog;
    /** While the broker is away: nothing is sent before this; null otherwise. */
    private Instant sendNotBefore;

    BrokerOutage(Clock clock) {
        this.clock = clock;
        this.outageLog = new OutageLog(LoggerFactory.getLogger(Dispatcher.class), "Kafka broker", clock);
    }

    /** How long a run starting at {@code now} must still wait before it sends; null when it may send. */
    Duration pauseLeft(Instant now) {
        if (sendNotBefore != null && now.isBefore(sendNotBefore)) {
            return Duration.between(now, sendNotBefore);
        }
        return null;
    }

    /**
     * The broker was met away for {@code reason}: no send before the backoff (returned), the outage logged once.
     */
    Duration failed(String reason, List<Duration> retryTiers) {
        var backoff = outageBackoff(retryTiers);
        sendNotBefore = clock.instant().plus(backoff);
        outageLog.failed(reason, "pending events keep their delivery attempts and are sent again in "
                + backoff.toMillis() + " ms");
        return backoff;
    }

    /** The broker answered: sends go on at once, and the end of an outage is logged. */
    void answered() {
        sendNotBefore = null;
        outageLog.recovered();
    }

    /**
     * How long to wait before trying a broker that is away again: the delivery retry policy's first tier, at most
     * {@link #MAX_OUTAGE_BACKOFF} (which is also the pause when the policy has no tier), at least 1 ms.
     */
    static Duration outageBackoff(List<Duration> tiers) {
        var tier = tiers.isEmpty() || tiers.get(0).compareTo(MAX_OUTAGE_BACKOFF) > 0 ? MAX_OUTAGE_BACKOFF : tiers.get(0);
        return tier.isZero() ? Duration.ofMillis(1) : tier;
    }

    /** The reason of the first failure of {@code results} that was an outage; null when the broker answered. */
    static String outageIn(List<DeliveryOutcome> results) {
        for (var result : results) {
            if (result instanceof DeliveryOutcome.Failed failure && failure.outage()) {
                return failure.reason();
            }
        }
        return null;
    }
}
