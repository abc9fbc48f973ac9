package io.msgx.pipeline.store;

import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.StorePorts;

import java.util.Objects;

/**
 * For store implementations that keep a table's statements together: the six {@code PROC_STATE} ports
 * ({@link ProcStatePorts}, one object each), the six outbox ports served by one object ({@code O}). A store or
 * transaction extends this and implements the rest of {@link StorePorts} itself.
 *
 * @param <O> the {@code MSG_EVENT} statements
 */
public abstract class TablePorts<
        O extends Notifications & Projections & ReferenceNotifications & DeadLetters & OutboxCleanup & OutboxQueries>
        implements StorePorts {

    private final ProcStatePorts processing;
    private final O outbox;

    protected TablePorts(ProcStatePorts processing, O outbox) {
        this.processing = Objects.requireNonNull(processing, "processing");
        this.outbox = Objects.requireNonNull(outbox, "outbox");
    }

    @Override
    public final MessageQueue queue() {
        return processing.queue();
    }

    @Override
    public final IdentityRegister identities() {
        return processing.identities();
    }

    @Override
    public final BackfillMarks backfillMarks() {
        return processing.backfillMarks();
    }

    @Override
    public final MessageReplays replays() {
        return processing.replays();
    }

    @Override
    public final MessageArchive messageArchive() {
        return processing.messageArchive();
    }

    @Override
    public final MessageQueries messageQueries() {
        return processing.messageQueries();
    }

    @Override
    public final Notifications notifications() {
        return outbox;
    }

    @Override
    public final Projections projections() {
        return outbox;
    }

    @Override
    public final ReferenceNotifications referenceNotifications() {
        return outbox;
    }

    @Override
    public final DeadLetters deadLetters() {
        return outbox;
    }

    @Override
    public final OutboxCleanup outboxCleanup() {
        return outbox;
    }

    @Override
    public final OutboxQueries outboxQueries() {
        return outbox;
    }
}
