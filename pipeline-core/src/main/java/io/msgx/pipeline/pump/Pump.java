package io.msgx.pipeline.pump;

import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * The single FIFO pump (seeds §5.1). Each {@link #tick()} looks only at the head — the smallest open message:
 * <ol>
 *   <li>no head → {@link TickResult.Idle};</li>
 *   <li>head above the watermark → not taken ({@link TickResult.BeyondWatermark}), with one warning per
 *       watermark value;</li>
 *   <li>head {@code FAILED} with its attempts used up → {@code DEAD(EXHAUSTED)} and its backfill intent in one
 *       statement, no lock, no mailbox write;</li>
 *   <li>head {@code FAILED} and not yet due → wait; nothing after it is processed meanwhile;</li>
 *   <li>head {@code FAILED} and due → {@link MessageProcessor#processOne}, alone;</li>
 *   <li>head {@code PENDING} → the run of pending messages from the head on, up to the group size
 *       ({@code msgx.pipeline.group-size}), through {@link MessageProcessor#processGroup}.</li>
 * </ol>
 * There is no time-based poison pill: only the attempt cap ends a message that keeps failing.
 */
public final class Pump {

    private static final Logger log = LoggerFactory.getLogger(Pump.class);

    private final PipelineStore store;
    private final MessageProcessor processor;
    private final RetryPolicy retry;
    private final Clock clock;
    private final PipelineMetrics metrics;
    private final int groupSize;
    private long lastWarnedWatermark = -1;
    /** Shared with the processor: one report of a store outage, wherever the pump meets it. */
    private final OutageLog storeOutage;

    public Pump(PipelineStore store, MessageProcessor processor, RetryPolicy retry, Clock clock, PipelineMetrics metrics) {
        this(store, processor, retry, 1, clock, metrics);
    }

    /** A pump that lets up to {@code groupSize} pending head messages share one business transaction. */
    public Pump(PipelineStore store, MessageProcessor processor, RetryPolicy retry, int groupSize, Clock clock,
                PipelineMetrics metrics) {
        this.groupSize = groupSize;
        this.store = store;
        this.processor = processor;
        this.retry = retry;
        this.clock = clock;
        this.metrics = metrics;
        this.storeOutage = processor.storeOutage();
    }

    public TickResult tick() {
        try {
            var result = tickOnce();
            if (!(result instanceof TickResult.Unavailable)) {
                storeOutage.recovered(); // an Unavailable tick was an outage, reported where it was met
            }
            return result;
        } catch (StoreConflictException e) {
            log.warn("The pump's work was rolled back by our database and is retried next tick: {}", e.getMessage());
            return new TickResult.StoreUnavailable(e.getMessage());
        } catch (StoreUnavailableException e) {
            storeOutage.failed(e.getMessage(), "the pump retries next tick");
            return new TickResult.StoreUnavailable(e.getMessage());
        }
    }

    private TickResult tickOnce() {
        var result = headTick();
        metrics.fifoHead(blockOf(result));
        return result;
    }

    /** What holds the head after a tick that came to {@code result}. */
    private static HeadBlock blockOf(TickResult result) {
        return result.match(HEAD_BLOCK);
    }

    private static final TickResult.Cases<HeadBlock> HEAD_BLOCK = new TickResult.Cases<>() {
        @Override
        public HeadBlock idle(TickResult.Idle idle) {
            return HeadBlock.NOT_BLOCKED;
        }

        @Override
        public HeadBlock beyondWatermark(TickResult.BeyondWatermark beyond) {
            return beyond.block();
        }

        @Override
        public HeadBlock exhausted(TickResult.Exhausted exhausted) {
            return HeadBlock.NOT_BLOCKED;
        }

        @Override
        public HeadBlock waitingForRetry(TickResult.WaitingForRetry waiting) {
            return HeadBlock.waitingAfter(waiting.errorClass());
        }

        @Override
        public HeadBlock processed(TickResult.Processed processed) {
            return processed.outcomes().get(processed.outcomes().size() - 1) instanceof ProcessOutcome.Failed failed
                    ? HeadBlock.waitingAfter(failed.errorClass()) : HeadBlock.NOT_BLOCKED;
        }

        @Override
        public HeadBlock unavailable(TickResult.Unavailable unavailable) {
            return HeadBlock.NOT_BLOCKED;
        }

        @Override
        public HeadBlock storeUnavailable(TickResult.StoreUnavailable unavailable) {
            return HeadBlock.NOT_BLOCKED;
        }
    };

    private TickResult headTick() {
        // The watermark first (seeds §5.1-2): intake commits smaller mailbox IDs and the watermark together, so a head
        // read after the watermark is never above rows that watermark covers; read the other way round, a message the
        // compatibility entry enqueued could be taken before the smaller IDs whose commit fell between the two reads.
        var cursor = store.inboxCursor().load();
        var watermark = cursor.watermark();
        var head = store.queue().head();
        if (head.isEmpty()) {
            return new TickResult.Idle();
        }
        var message = head.get();
        var block = HeadBlock.of(message, cursor, clock.instant());
        if (block == HeadBlock.BEYOND_WATERMARK || block == HeadBlock.HOLE) {
            if (watermark != lastWarnedWatermark) {
                lastWarnedWatermark = watermark;
                try (var context = MessageLogContext.message(message.msgId())) {
                    log.warn("Head message {} is above the watermark {}: waiting for intake to catch up so it cannot "
                            + "overtake a smaller mailbox ID{}", message.msgId(), watermark,
                            block == HeadBlock.HOLE ? " (mailbox ID " + (watermark + 1) + " is missing since "
                                    + cursor.holeSince() + ")" : "");
                }
            }
            return new TickResult.BeyondWatermark(message.msgId(), watermark, block);
        }
        if (message.status() == ProcStatus.FAILED && retry.exhausted(message.attempts())) {
            if (store.queue().exhaust(message.msgId(), clock.instant())) {
                metrics.messageEnded(ProcStatus.DEAD, ErrorClass.EXHAUSTED);
                try (var context = MessageLogContext.message(message.msgId())) {
                    log.error("Message {} DEAD(EXHAUSTED) after {} attempts; last error ({}): {}", message.msgId(),
                            message.attempts(), message.errorClass(), message.lastError());
                }
            }
            return new TickResult.Exhausted(message.msgId());
        }
        if (block != HeadBlock.NOT_BLOCKED) {
            return new TickResult.WaitingForRetry(message.msgId(), message.nextAttemptAt(), message.errorClass());
        }
        if (message.status() == ProcStatus.FAILED || groupSize == 1) {
            return processed(List.of(processor.processOne(message)));
        }
        var run = store.queue().pendingRun(watermark, groupSize);
        if (run.isEmpty() || run.get(0).msgId() != message.msgId()) {
            return processed(List.of(processor.processOne(message)));
        }
        return processed(processor.processGroup(run));
    }

    /** The outcomes of a tick; when the head itself met an outage nothing moved, and the caller waits a period. */
    private static TickResult processed(List<ProcessOutcome> outcomes) {
        if (outcomes.get(0) instanceof ProcessOutcome.NotRecorded notRecorded) {
            return new TickResult.Unavailable(notRecorded.msgId(), notRecorded.reason());
        }
        return new TickResult.Processed(outcomes);
    }
}
