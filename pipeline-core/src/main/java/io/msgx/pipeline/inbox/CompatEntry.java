package io.msgx.pipeline.inbox;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * The compatibility entry ({@code POST /cminmsgs/send}, seeds §4.4): for systems that hand us a message
 * instead of writing the mailbox themselves. Two steps, not one transaction:
 * <ol>
 *   <li>write the message into the shared mailbox ({@code CMINMSGS}) — from here on it is safe: the poller
 *       would find it anyway;</li>
 *   <li>enqueue it in {@code PROC_STATE} at once. This row is above the watermark, so the pump leaves it alone
 *       until intake catches up: the order stays by mailbox ID, the cost is the wait for the poller.</li>
 * </ol>
 * If step 2 fails the message is still accepted (the poller enqueues it). A client that retries after a lost
 * answer may write the message twice; the business identity makes the second a duplicate.
 *
 * <p>Response semantics (C-28, our definition): {@link Outcome.Accepted} = in the mailbox (and maybe already
 * enqueued) → 202; {@link Outcome.Refused} = not a SIS message we could read → 400, nothing written;
 * {@link Outcome.Unavailable} = the mailbox could not be written → 503, nothing written, retry later.
 */
public final class CompatEntry {

    private static final Logger log = LoggerFactory.getLogger(CompatEntry.class);

    private final Mailbox mailbox;
    private final MessageQueue queue;
    private final XmlCodec codec;
    private final Clock clock;

    public CompatEntry(Mailbox mailbox, MessageQueue queue, XmlCodec codec, Clock clock) {
        this.mailbox = mailbox;
        this.queue = queue;
        this.codec = codec;
        this.clock = clock;
    }

    /** The outcome of one submission. */
    public sealed interface Outcome {

        /**
         * What a caller does with each outcome, one method per kind (D-149): a new kind adds a method here, and every
         * {@link #match} that does not say what it does with it stops compiling.
         */
        interface Cases<R> {
            R accepted(Accepted accepted);

            R refused(Refused refused);

            R unavailable(Unavailable unavailable);
        }

        /** The answer of the case for this outcome's kind. */
        <R> R match(Cases<R> cases);

        /** Written to the mailbox as {@code msgId}; {@code enqueued} when step 2 succeeded too. */
        record Accepted(long msgId, boolean enqueued) implements Outcome {
            @Override
            public <R> R match(Cases<R> cases) {
                return cases.accepted(this);
            }
        }

        /** Not a message we could read; nothing written. */
        record Refused(String reason) implements Outcome {
            @Override
            public <R> R match(Cases<R> cases) {
                return cases.refused(this);
            }
        }

        /** The mailbox could not be written; nothing written. */
        record Unavailable(String reason) implements Outcome {
            @Override
            public <R> R match(Cases<R> cases) {
                return cases.unavailable(this);
            }
        }
    }

    public Outcome submit(String xml) {
        if (codec.decode(xml) instanceof DecodeResult.Malformed malformed) {
            return new Outcome.Refused(malformed.reason());
        }
        var now = clock.instant();
        long msgId;
        try {
            msgId = mailbox.appendInbound(xml, now);
        } catch (MailboxUnavailableException e) {
            log.warn("Compatibility entry: mailbox write failed, nothing accepted: {}", e.getMessage());
            return new Outcome.Unavailable(e.getMessage());
        }
        try {
            queue.insertIfAbsent(msgId, now, now);
            log.info("Message {} received through the compatibility entry and enqueued", msgId);
            return new Outcome.Accepted(msgId, true);
        } catch (RuntimeException e) {
            log.warn("Message {} is in the mailbox but not enqueued yet ({}); the poller will enqueue it", msgId,
                    e.toString());
            return new Outcome.Accepted(msgId, false);
        }
    }
}
