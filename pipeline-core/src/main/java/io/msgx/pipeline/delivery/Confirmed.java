package io.msgx.pipeline.delivery;

import java.time.Duration;

/**
 * What the confirmed rounds of a run add up to: their figures, the highest notification and projection they
 * claimed, and the lowest notification among them that released its FLID — a retried head confirmed, or a
 * notification parked {@code DEAD} — whose held-back successors the next run must claim from there.
 */
record Confirmed(DispatchResult figures, long lastNotification, long lastProjection, long lowestReleasedHead) {

    static final Confirmed NOTHING = new Confirmed(DispatchResult.NOTHING, 0, 0, Long.MAX_VALUE);

    Confirmed then(Confirmed next) {
        return new Confirmed(plus(figures, next.figures), Math.max(lastNotification, next.lastNotification),
                Math.max(lastProjection, next.lastProjection), Math.min(lowestReleasedHead, next.lowestReleasedHead));
    }

    private static DispatchResult plus(DispatchResult a, DispatchResult b) {
        return new DispatchResult(a.delivered() + b.delivered(), a.superseded() + b.superseded(),
                a.failed() + b.failed(), a.dead() + b.dead(), Duration.ZERO);
    }
}
