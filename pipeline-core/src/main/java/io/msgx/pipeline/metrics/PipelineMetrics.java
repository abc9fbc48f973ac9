package io.msgx.pipeline.metrics;

import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.ProcStatus;

/**
 * What the pipeline reports as it works. The runner binds it to Micrometer; {@link #NONE} discards.
 * Counters and gauges only: nothing here may fail or block the pipeline.
 */
public interface PipelineMetrics {

    PipelineMetrics NONE = new PipelineMetrics() {
    };

    /** A gap in the mailbox IDs was given up as permanent after max-commit-delay; the IDs skipped. */
    default void permanentHoleReleased(long fromId, long toId) {
    }

    /** How far the watermark trails the highest mailbox ID the poller has seen. */
    default void watermarkLag(long ids) {
    }

    /** Rows the poller enqueued in one round. */
    default void enqueued(int rows) {
    }

    /** A message reached a terminal state. */
    default void messageEnded(ProcStatus status, ErrorClass errorClass) {
    }

    /** A processing attempt failed and will be retried. */
    default void attemptFailed(ErrorClass errorClass) {
    }

    /**
     * A message that ended carried {@code path} ({@code FLTR/XTRA}, {@code FLOP/GTDT/@XTRA}), which the model does
     * not map; {@code kind} is its {@code TYPE-STYP}.
     */
    default void unmappedRead(String kind, String path) {
    }

    /** What holds the FIFO head at this tick of the pump ({@link HeadBlock#NOT_BLOCKED} when nothing does). */
    default void fifoHead(HeadBlock block) {
    }

    /** Events the broker acknowledged in one dispatch round. */
    default void eventsDelivered(int events) {
    }

    /**
     * One event the broker acknowledged, {@code sinceCommit} after its outbox row was committed ({@code CREATED_AT} to
     * the acknowledgement): what a consumer waits for a change, backlog and broker outages included.
     */
    default void committedToAcknowledged(java.time.Duration sinceCommit) {
    }

    /** Event deliveries that failed in one round, and how many of those are now dead. */
    default void eventDeliveriesFailed(int failed, int dead) {
    }

    /** Undelivered and dead outbox rows, and the age of the oldest undelivered one (zero when none). */
    default void deliveryBacklog(long pending, long dead, java.time.Duration oldestPendingAge) {
    }
}
