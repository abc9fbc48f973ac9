package io.msgx.pipeline.delivery;

import io.msgx.pipeline.retry.RetryPolicy;

import java.util.Objects;

/**
 * @param notificationBatch at most this many {@code KAFKA:msg} notifications per round, one per FLID
 *                          ({@code msgx.dispatch.batch})
 * @param flushLimit        at most this many {@code KAFKA:schd} projections per round ({@code msgx.schd.flush-limit})
 * @param retry             attempts and backoff of failed deliveries ({@code msgx.dispatch.retry.*})
 */
public record DispatchSettings(int notificationBatch, int flushLimit, RetryPolicy retry) {

    public DispatchSettings {
        Objects.requireNonNull(retry, "retry");
        if (notificationBatch < 1) {
            throw new IllegalArgumentException("msgx.dispatch.batch must be at least 1, got " + notificationBatch);
        }
        if (flushLimit < 1) {
            throw new IllegalArgumentException("msgx.schd.flush-limit must be at least 1, got " + flushLimit);
        }
    }

    public static DispatchSettings defaults() {
        return new DispatchSettings(500, 500, RetryPolicy.deliveryDefaults());
    }
}
