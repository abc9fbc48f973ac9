package io.msgx.pipeline.pump;

import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.Terminal;

import java.time.Instant;

/** How one processing attempt of a message ended. */
public sealed interface ProcessOutcome {

    long msgId();

    /** The message reached a terminal state, now recorded. */
    record Ended(long msgId, Terminal terminal) implements ProcessOutcome {
    }

    /** The attempt failed; the failure is recorded and the message is due again at {@code nextAttemptAt}. */
    record Failed(long msgId, ErrorClass errorClass, String error, int attempts, Instant nextAttemptAt)
            implements ProcessOutcome {
    }

    /**
     * The attempt could not be made or recorded because the mailbox or our database did not answer. The message
     * stays as it was (no attempt used) and is tried again when the service answers.
     */
    record NotRecorded(long msgId, String reason) implements ProcessOutcome {
    }
}
