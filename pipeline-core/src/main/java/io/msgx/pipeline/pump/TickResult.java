package io.msgx.pipeline.pump;

import io.msgx.pipeline.record.ErrorClass;

import java.time.Instant;
import java.util.List;

/**
 * What one {@link Pump#tick()} did; the runner sleeps on {@link Idle}, {@link BeyondWatermark}, waits and
 * unavailability.
 */
public sealed interface TickResult {

    /**
     * What a caller does with each kind of tick, one method per kind (D-149): a new kind adds a method here, and every
     * {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R idle(Idle idle);

        R beyondWatermark(BeyondWatermark beyond);

        R exhausted(Exhausted exhausted);

        R waitingForRetry(WaitingForRetry waiting);

        R processed(Processed processed);

        R unavailable(Unavailable unavailable);

        R storeUnavailable(StoreUnavailable unavailable);
    }

    /** The answer of the case for this tick's kind. */
    <R> R match(Cases<R> cases);

    /** Nothing is open. */
    record Idle() implements TickResult {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.idle(this);
        }
    }

    /**
     * The head is above the watermark (entered directly, e.g. by the compatibility entry, or behind a hole): it is
     * not taken until intake catches up, so it cannot overtake a smaller ID not yet enqueued. {@code block} says
     * which: {@link HeadBlock#HOLE} when intake waits for a missing ID, else {@link HeadBlock#BEYOND_WATERMARK}.
     */
    record BeyondWatermark(long msgId, long watermark, HeadBlock block) implements TickResult {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.beyondWatermark(this);
        }
    }

    /** The head's attempts were used up; it is now {@code DEAD(EXHAUSTED)}. */
    record Exhausted(long msgId) implements TickResult {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.exhausted(this);
        }
    }

    /**
     * The head failed with {@code errorClass} and is not due before {@code until}; nothing after it moves
     * meanwhile.
     */
    record WaitingForRetry(long msgId, Instant until, ErrorClass errorClass) implements TickResult {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.waitingForRetry(this);
        }
    }

    /**
     * The head was processed once, alone or with the pending messages after it (a group): every outcome, in
     * FIFO order, never empty.
     */
    record Processed(List<ProcessOutcome> outcomes) implements TickResult {
        public Processed {
            outcomes = List.copyOf(outcomes);
            if (outcomes.isEmpty()) {
                throw new IllegalArgumentException("a processed tick has at least the head's outcome");
            }
        }

        /** The head's outcome. */
        public ProcessOutcome outcome() {
            return outcomes.get(0);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.processed(this);
        }
    }

    /**
     * The head could not be processed because the mailbox or our database did not answer: it stays as it was, no
     * attempt used, and is taken again on the next tick.
     */
    record Unavailable(long msgId, String reason) implements TickResult {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.unavailable(this);
        }
    }

    /** Our database did not answer; nothing changed. */
    record StoreUnavailable(String reason) implements TickResult {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.storeUnavailable(this);
        }
    }
}
