package io.msgx.pipeline.port;

import io.msgx.pipeline.pump.HeadBlock;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcStatus;

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

    /**
     * One message was processed, with {@code outcome} ({@code SUCCEEDED}, {@code SKIPPED}, {@code DEAD}, {@code FAILED}
     * or {@code NOT_RECORDED}), in {@code took}: alone, the time of its attempt; in a group applied in one transaction,
     * its share of the group's time (the group's time divided by its size), so the times of all messages add up to the
     * time the pump spent on them.
     */
    default void messageProcessed(String outcome, java.time.Duration took) {
    }

    /** A group of {@code messages} messages was applied in one transaction (decision D-34) in {@code took}. */
    default void groupProcessed(int messages, java.time.Duration took) {
    }

    /** A processing attempt failed and will be retried. */
    /** {@code sender}'s {@code SEQN} fell far below the highest seen: its sequence restarted (D-86). */
    default void sequenceRestarted(String sender) {
    }

    /**
     * A mailbox row ended {@code SKIPPED(status:<status>)}: its {@code CMINMSGS_STATUS} ({@code status}, trimmed, as the
     * AODB side wrote it) is not one the configuration accepts, so it is no message (sis-format §10, D-110).
     */
    default void statusSkipped(String status) {
    }

    /** A message was skipped as the duplicate of another; {@code contentDiffers}: its content is not the holder's. */
    default void duplicateSkipped(boolean contentDiffers) {
    }

    default void attemptFailed(ErrorClass errorClass) {
    }

    /**
     * A message that ended carried {@code path} ({@code FLTR/XTRA}, {@code FLOP/GTDT/@XTRA}), which the model does
     * not map; {@code kind} is its {@code TYPE-STYP}.
     */
    default void unmappedRead(String kind, String path) {
    }

    /**
     * A message that ended carried, at {@code path} ({@code FLOP/EOBT}), a time field whose value is no time; the value
     * is kept as sent (sis-format v3 §10). {@code kind} is its {@code TYPE-STYP}.
     */
    default void timeNotUnderstood(String kind, String path) {
    }

    /**
     * A message of several {@code FLOP} bodies ended {@code SUCCEEDED} with {@code bodies} of them naming a flight the
     * store does not know; they wait for a replay once the flights exist (D-118).
     */
    default void operationsOnUnknownFlights(int bodies) {
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
