package io.msgx.pipeline.port;

import java.time.Instant;
import java.util.Optional;

/**
 * The replay channel (G-REPLAY-CHANNEL): our own copy of each raw message for the {@code R_keep} window, for a
 * mailbox side that may purge marked rows before a replay needs them. Off unless configured.
 */
public interface RawMessageCopies {

    /** Keep the text of message {@code msgId}; keeping it again is a no-op. */
    void keep(long msgId, String text, Instant at);

    /** The kept text, when there is one. */
    Optional<String> find(long msgId);
}
