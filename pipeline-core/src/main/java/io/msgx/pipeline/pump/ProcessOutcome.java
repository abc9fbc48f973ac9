package io.msgx.pipeline.pump;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;

import java.time.Instant;

/** How one processing attempt of a message ended. */
public sealed interface ProcessOutcome {

    long msgId();

    /**
     * What a caller does with each way an attempt ends, one method per kind (D-149): a new kind adds a method here,
     * and every {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R ended(Ended ended);

        R failed(Failed failed);

        R notRecorded(NotRecorded notRecorded);
    }

    /** The answer of the case for this outcome's kind. */
    <R> R match(Cases<R> cases);

    /** The outcome's name as the processing timer tags it: the terminal state, {@code FAILED} or {@code NOT_RECORDED}. */
    String timerTag();

    /** The message reached a terminal state, now recorded. */
    record Ended(long msgId, MessageEnd terminal) implements ProcessOutcome {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.ended(this);
        }

        @Override
        public String timerTag() {
            return terminal.status().name();
        }
    }

    /** The attempt failed; the failure is recorded and the message is due again at {@code nextAttemptAt}. */
    record Failed(long msgId, ErrorClass errorClass, String error, int attempts, Instant nextAttemptAt)
            implements ProcessOutcome {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.failed(this);
        }

        @Override
        public String timerTag() {
            return "FAILED";
        }
    }

    /**
     * The attempt could not be made or recorded because the mailbox or our database did not answer. The message
     * stays as it was (no attempt used) and is tried again when the service answers.
     */
    record NotRecorded(long msgId, String reason) implements ProcessOutcome {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.notRecorded(this);
        }

        @Override
        public String timerTag() {
            return "NOT_RECORDED";
        }
    }
}
