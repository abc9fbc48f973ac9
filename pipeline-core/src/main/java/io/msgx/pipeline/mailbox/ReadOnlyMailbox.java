package io.msgx.pipeline.mailbox;

import io.msgx.pipeline.port.Mailbox;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The mailbox of a shadow deployment ({@code msgx.mailbox.read-only=true}): a second environment reading the
 * same mailbox must never write to it. Reads pass through; a write is refused loudly, so a code path that
 * would write is found in testing, not in the AODB's tables.
 */
public final class ReadOnlyMailbox implements Mailbox {

    public static final String KEY = "msgx.mailbox.read-only";

    private final Mailbox delegate;

    public ReadOnlyMailbox(Mailbox delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<MailboxRow> readAfter(long watermark, int limit) {
        return delegate.readAfter(watermark, limit);
    }

    @Override
    public Optional<MailboxContent> readContent(long id) {
        return delegate.readContent(id);
    }

    @Override
    public java.util.Map<Long, MailboxContent> readContents(java.util.Collection<Long> ids) {
        return delegate.readContents(ids);
    }

    @Override
    public MarkOutcome markProcessed(long id, Instant processedAt) {
        throw refused("mark message " + id + " processed");
    }

    @Override
    public long appendInbound(String xml, Instant receivedAt) {
        throw refused("append an inbound message");
    }

    @Override
    public long appendOutbound(OutboundMessage message) {
        throw refused("append an outbound message");
    }

    @Override
    public OptionalLong findOutbound(String marker, Instant insertedSince) {
        return delegate.findOutbound(marker, insertedSince);
    }

    @Override
    public OptionalLong minId() {
        return delegate.minId();
    }

    @Override
    public OptionalLong maxId() {
        return delegate.maxId();
    }

    private static IllegalStateException refused(String what) {
        return new IllegalStateException("Refused to " + what + ": this is a shadow deployment (" + KEY
                + "=true) and never writes to the shared mailbox");
    }
}
