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
     * The attempt failed and the failure could not even be recorded (our database is unreachable). The
     * message stays as it was and is tried again when the store answers.
     */
    record NotRecorded(long msgId, String reason) implements ProcessOutcome {
    }
}
