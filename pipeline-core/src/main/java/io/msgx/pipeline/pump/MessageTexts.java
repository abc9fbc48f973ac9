package io.msgx.pipeline.pump;

import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.MessageEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;

/**
 * A message's text as processing reads it: the mailbox row, else, with the replay channel on
 * ({@code msgx.pipeline.replay-channel}), the copy kept on first read; and what that text says of a duplicate,
 * whether its content is its holder's (D-84).
 */
final class MessageTexts {

    /** Its lines are the processor's, under the logger operators already filter on. */
    private static final Logger log = LoggerFactory.getLogger(MessageProcessor.class);

    private final Mailbox mailbox;
    private final PipelineStore store;
    private final ProcessingSettings settings;
    private final Clock clock;
    private final PipelineMetrics metrics;

    MessageTexts(Mailbox mailbox, PipelineStore store, ProcessingSettings settings, Clock clock,
                 PipelineMetrics metrics) {
        this.mailbox = mailbox;
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * The raw text read from the mailbox; with the replay channel on, a copy is kept on first read and used when the
     * mailbox row is gone (purged after its mark). A row skipped for its status is never copied, so a copy is always of
     * a row that was a message.
     */
    Optional<String> withRawCopy(long msgId, Optional<String> raw) {
        if (!settings.keepRawCopies()) {
            return raw;
        }
        if (raw.isPresent()) {
            store.rawCopies().keep(msgId, raw.get(), clock.instant());
            return raw;
        }
        var copy = store.rawCopies().find(msgId);
        copy.ifPresent(text -> log.info("Message {}: mailbox row gone, processing our kept copy (replay channel)", msgId));
        return copy;
    }

    /**
     * How a duplicate ends: {@code SKIPPED(duplicate-of:<holder>)}, with {@code :content-differs} when its content is
     * not the holder's (D-84). Content is the text without its {@code META} (a resend may carry a new {@code DTTM})
     * and without the blanks between elements; the holder's text is read as processing reads it (the mailbox, else
     * our kept copy). When it can no longer be read, the plain reason stands: nothing tells the two apart.
     */
    MessageEnd duplicateEnd(long msgId, String raw, long holder) {
        var holderText = mailbox.readText(holder).or(() -> settings.keepRawCopies() ? store.rawCopies().find(holder)
                : Optional.empty());
        boolean differs = holderText.isPresent() && !content(holderText.get()).equals(content(raw));
        metrics.duplicateSkipped(differs);
        if (differs) {
            try (var context = MessageLogContext.message(msgId)) {
                log.warn("Message {} has the identity of message {} but other content: skipped as its duplicate (Q15);"
                        + " compare them with 'message show {} --raw' and 'message show {} --raw'", msgId, holder, msgId,
                        holder);
            }
            return MessageEnd.skipped("duplicate-of:" + holder + ":" + CONTENT_DIFFERS);
        }
        return MessageEnd.skipped("duplicate-of:" + holder);
    }

    /** The marker of a duplicate whose content differs from its holder's. */
    static final String CONTENT_DIFFERS = "content-differs";

    private static final java.util.regex.Pattern META = java.util.regex.Pattern.compile("<META>.*?</META>",
            java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern BETWEEN_ELEMENTS = java.util.regex.Pattern.compile(">\\s+<");

    private static String content(String text) {
        return BETWEEN_ELEMENTS.matcher(META.matcher(text.strip()).replaceFirst("")).replaceAll("><");
    }
}
