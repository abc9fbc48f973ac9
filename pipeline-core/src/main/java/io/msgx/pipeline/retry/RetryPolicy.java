package io.msgx.pipeline.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * How often and how soon a failed thing — a message being processed, an event being delivered — is tried
 * again. It may be attempted {@code maxAttempts} times; after the n-th failed attempt (n &lt; maxAttempts) it
 * waits {@code backoff[n-1]}; after the last it is exhausted (the message or event ends {@code DEAD}).
 *
 * <p>The start-up self-check: there must be exactly one backoff tier per retry ({@code maxAttempts - 1}); a
 * tier that can never be reached, or a retry without a tier, is refused naming the keys to fix
 * ({@code <settingPrefix>.max-attempts}, {@code <settingPrefix>.backoff}).
 */
public record RetryPolicy(String settingPrefix, int maxAttempts, List<Duration> backoff) {

    /** Processing of inbound messages by the pump. */
    public static final String PROCESSING = "msgx.pipeline.retry";
    /** Delivery of outbox events by the dispatcher. */
    public static final String DELIVERY = "msgx.dispatch.retry";

    public RetryPolicy {
        Objects.requireNonNull(settingPrefix, "settingPrefix");
        backoff = List.copyOf(backoff);
        var maxKey = settingPrefix + ".max-attempts";
        var backoffKey = settingPrefix + ".backoff";
        if (maxAttempts < 1) {
            throw new IllegalArgumentException(maxKey + " must be at least 1, got " + maxAttempts);
        }
        if (backoff.size() != maxAttempts - 1) {
            throw new IllegalArgumentException(backoffKey + " has " + backoff.size() + " tiers but " + maxKey + "="
                    + maxAttempts + " allows " + (maxAttempts - 1) + " retries: give exactly one tier per retry");
        }
        for (var tier : backoff) {
            if (tier.isNegative()) {
                throw new IllegalArgumentException(backoffKey + " has a negative tier " + tier);
            }
        }
    }

    /** Message processing: five attempts, retries after 5 s, 30 s, 2 min and 10 min. */
    public static RetryPolicy processingDefaults() {
        return new RetryPolicy(PROCESSING, 5, List.of(Duration.ofSeconds(5), Duration.ofSeconds(30),
                Duration.ofMinutes(2), Duration.ofMinutes(10)));
    }

    /**
     * Event delivery: eight attempts, retries after 1 s, 5 s, 30 s, 1, 5, 15 and 30 min — about 50 minutes
     * of broker outage before an event is parked as dead.
     */
    public static RetryPolicy deliveryDefaults() {
        return new RetryPolicy(DELIVERY, 8, List.of(Duration.ofSeconds(1), Duration.ofSeconds(5),
                Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
                Duration.ofMinutes(30)));
    }

    /** True when something that has failed {@code attempts} times may not be tried again. */
    public boolean exhausted(int attempts) {
        return attempts >= maxAttempts;
    }

    /** When something that has now failed {@code attempts} times is next due. */
    public Instant nextAttemptAt(int attempts, Instant now) {
        return exhausted(attempts) ? now : now.plus(backoff.get(attempts - 1));
    }
}
