package io.msgx.pipeline.delivery;

import java.time.Duration;
import java.util.Objects;

/**
 * What one dispatch run did.
 *
 * @param delivered  events the broker acknowledged and the outbox now records as sent
 * @param superseded projections delivered while a newer version replaced the row; the newer one goes next
 * @param failed     events the broker refused (a per-record failure), due again after their backoff
 * @param dead       events whose last attempt failed, now {@code DEAD}
 * @param brokerAway zero when the broker answered; otherwise the broker was away (D-66): the events it did not take
 *                   stay pending with no attempt used, and the dispatcher sends nothing before this delay has passed
 *                   (a run asked earlier returns at once with what is left of it)
 */
public record DispatchResult(int delivered, int superseded, int failed, int dead, Duration brokerAway) {

    public static final DispatchResult NOTHING = new DispatchResult(0, 0, 0, 0, Duration.ZERO);

    public DispatchResult {
        Objects.requireNonNull(brokerAway, "brokerAway");
        if (brokerAway.isNegative()) {
            throw new IllegalArgumentException("brokerAway must not be negative, got " + brokerAway);
        }
    }

    /** A run that met (or still waits out) a broker outage: its loop should try again after {@link #brokerAway}. */
    public boolean outage() {
        return !brokerAway.isZero();
    }

    /** Nothing was delivered, refused or parked, and the broker was not away: there is no more work now. */
    public boolean idle() {
        return delivered + superseded + failed + dead == 0 && !outage();
    }
}
