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

    /** {@code msgx.dispatch.batch}'s default: the one source, for the runner's configuration and embedders alike. */
    public static final int DEFAULT_NOTIFICATION_BATCH = 5_000;
    /** {@code msgx.schd.flush-limit}'s default. */
    public static final int DEFAULT_FLUSH_LIMIT = 5_000;

    public DispatchSettings {
        Objects.requireNonNull(retry, "retry");
        if (notificationBatch < 1) {
            throw new IllegalArgumentException("msgx.dispatch.batch must be at least 1, got " + notificationBatch);
        }
        if (flushLimit < 1) {
            throw new IllegalArgumentException("msgx.schd.flush-limit must be at least 1, got " + flushLimit);
        }
    }

    /** The runner's defaults (docs/reference.md): these constants and {@link RetryPolicy#deliveryDefaults()}. */
    public static DispatchSettings defaults() {
        return new DispatchSettings(DEFAULT_NOTIFICATION_BATCH, DEFAULT_FLUSH_LIMIT, RetryPolicy.deliveryDefaults());
    }
}
