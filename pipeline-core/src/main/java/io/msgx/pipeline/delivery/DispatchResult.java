package io.msgx.pipeline.delivery;

/**
 * What one dispatch round did.
 *
 * @param delivered  events the broker acknowledged and the outbox now records as sent
 * @param superseded projections delivered while a newer version replaced the row; the newer one goes next
 * @param failed     events not acknowledged, due again after their backoff
 * @param dead       events whose last attempt failed, now {@code DEAD}
 */
public record DispatchResult(int delivered, int superseded, int failed, int dead) {

    public static final DispatchResult NOTHING = new DispatchResult(0, 0, 0, 0);

    public boolean idle() {
        return delivered + superseded + failed + dead == 0;
    }
}
