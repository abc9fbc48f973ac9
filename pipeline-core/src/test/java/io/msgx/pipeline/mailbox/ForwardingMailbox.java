package io.msgx.pipeline.mailbox;

import io.msgx.pipeline.port.Mailbox;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A mailbox that hands every call to another: a test overrides the one method it watches or changes, and the rest
 * behave as the mailbox underneath.
 */
public abstract class ForwardingMailbox implements Mailbox {

    private final Mailbox delegate;

    protected ForwardingMailbox(Mailbox delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
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
    public Map<Long, MailboxContent> readContents(Collection<Long> ids) {
        return delegate.readContents(ids);
    }

    @Override
    public MarkOutcome markProcessed(long id, Instant processedAt) {
        return delegate.markProcessed(id, processedAt);
    }

    @Override
    public Map<Long, MarkOutcome> markAllProcessed(Collection<Long> ids, Instant processedAt) {
        return delegate.markAllProcessed(ids, processedAt);
    }

    @Override
    public long appendInbound(String xml, Instant receivedAt) {
        return delegate.appendInbound(xml, receivedAt);
    }

    @Override
    public long appendOutbound(OutboundMessage message) {
        return delegate.appendOutbound(message);
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
}
