package io.msgx.pipeline.port;

import io.msgx.pipeline.mailbox.MailboxContent;
import io.msgx.pipeline.mailbox.MailboxRow;
import io.msgx.pipeline.mailbox.MailboxRowUnreadableException;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.MarkOutcome;
import io.msgx.pipeline.mailbox.OutboundMessage;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The shared mailbox the AODB side owns (sis-format §1): inbound {@code CMINMSGS}, outbound {@code COUTMSGS}.
 *
 * <p>Every method either answers or throws {@link MailboxUnavailableException}: an unreachable mailbox is
 * never reported as "no messages" or "no such row".
 */
public interface Mailbox {

    /**
     * Rows with an ID above {@code watermark}, ascending, at most {@code limit}. The processing mark is never a
     * predicate: a row already marked is still returned.
     */
    List<MailboxRow> readAfter(long watermark, int limit);

    /**
     * The XML text and the mailbox status of one row, read together (sis-format §10); empty when no row has that ID.
     *
     * @throws MailboxUnavailableException  when the mailbox cannot be read now (an outage)
     * @throws MailboxRowUnreadableException when the mailbox answers but this row cannot be read
     */
    Optional<MailboxContent> readContent(long id);

    /**
     * {@link #readContent} of several rows, by ID; an ID with no row is absent from the map. The default reads them
     * one by one; an adapter overrides it with one query.
     */
    default Map<Long, MailboxContent> readContents(Collection<Long> ids) {
        var contents = new LinkedHashMap<Long, MailboxContent>();
        ids.forEach(id -> readContent(id).ifPresent(content -> contents.put(id, content)));
        return contents;
    }

    /**
     * The XML text of one row; empty when no row has that ID. What {@link #readContent} reads, without the status: for
     * what shows or compares a text (a duplicate's holder, {@code message show}).
     *
     * @throws MailboxUnavailableException  when the mailbox cannot be read now (an outage)
     * @throws MailboxRowUnreadableException when the mailbox answers but this row's text cannot be read
     */
    default Optional<String> readText(long id) {
        return readContent(id).map(MailboxContent::text);
    }

    /** The XML texts of several rows, by ID, as {@link #readContents} reads them; an ID with no row is absent. */
    default Map<Long, String> readTexts(Collection<Long> ids) {
        var texts = new LinkedHashMap<Long, String>();
        readContents(ids).forEach((id, content) -> texts.put(id, content.text()));
        return texts;
    }

    /**
     * Set the processing mark once: {@link MarkOutcome#WRITTEN} when it was empty, {@link MarkOutcome#ALREADY_MARKED}
     * when another value was there (kept, a success), {@link MarkOutcome#MISSING_ROW} when no row has that ID.
     */
    MarkOutcome markProcessed(long id, Instant processedAt);

    /**
     * {@link #markProcessed} for several rows, with the same outcome per ID. The default marks one by one; an
     * adapter overrides it with a few statements.
     */
    default Map<Long, MarkOutcome> markAllProcessed(Collection<Long> ids, Instant processedAt) {
        var outcomes = new LinkedHashMap<Long, MarkOutcome>();
        ids.forEach(id -> outcomes.put(id, markProcessed(id, processedAt)));
        return outcomes;
    }

    /**
     * Append one inbound message to {@code CMINMSGS} as the AODB side would (the compatibility entry, tests and
     * the demo); returns its ID. {@code receivedAt} may be null.
     */
    long appendInbound(String xml, Instant receivedAt);

    /** Append one outbound message to {@code COUTMSGS}; returns its ID. */
    long appendOutbound(OutboundMessage message);

    /**
     * The first outbound row inserted at or after {@code insertedSince} whose text contains {@code marker}: how a
     * request written to {@code COUTMSGS} but not confirmed locally is found again instead of being resent.
     */
    OptionalLong findOutbound(String marker, Instant insertedSince);

    /** The smallest inbound ID present, for cut-over seeding; empty when the mailbox is empty. */
    OptionalLong minId();

    /** The largest inbound ID present, for cut-over seeding and the watermark-lag gauge. */
    OptionalLong maxId();
}
