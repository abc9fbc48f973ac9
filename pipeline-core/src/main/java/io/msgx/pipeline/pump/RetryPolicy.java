package io.msgx.pipeline.pump;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How often and how soon a failed message is tried again. A message may be attempted {@code maxAttempts}
 * times; after the n-th failed attempt (n &lt; maxAttempts) it waits {@code backoff[n-1]}. After the last one
 * it is exhausted and dies as {@code DEAD(EXHAUSTED)} at the next tick.
 *
 * <p>The start-up self-check: there must be exactly one backoff tier per retry ({@code maxAttempts - 1}); a
 * tier that can never be reached, or a retry without a tier, is refused with the keys to fix.
 */
public record RetryPolicy(int maxAttempts, List<Duration> backoff) {

    public static final String MAX_ATTEMPTS_KEY = "msgx.pipeline.retry.max-attempts";
    public static final String BACKOFF_KEY = "msgx.pipeline.retry.backoff";

    public RetryPolicy {
        backoff = List.copyOf(backoff);
        if (maxAttempts < 1) {
            throw new IllegalArgumentException(MAX_ATTEMPTS_KEY + " must be at least 1, got " + maxAttempts);
        }
        if (backoff.size() != maxAttempts - 1) {
            throw new IllegalArgumentException(BACKOFF_KEY + " has " + backoff.size() + " tiers but "
                    + MAX_ATTEMPTS_KEY + "=" + maxAttempts + " allows " + (maxAttempts - 1)
                    + " retries: give exactly one tier per retry");
        }
        for (var tier : backoff) {
            if (tier.isNegative()) {
                throw new IllegalArgumentException(BACKOFF_KEY + " has a negative tier " + tier);
            }
        }
    }

    /** Five attempts: retries after 5 s, 30 s, 2 min and 10 min. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(5, List.of(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(2),
                Duration.ofMinutes(10)));
    }

    /** True when a message that has failed {@code attempts} times may not be tried again. */
    public boolean exhausted(int attempts) {
        return attempts >= maxAttempts;
    }

    /** When a message that has now failed {@code attempts} times is next due. */
    public Instant nextAttemptAt(int attempts, Instant now) {
        return exhausted(attempts) ? now : now.plus(backoff.get(attempts - 1));
    }
}
