package io.msgx.pipeline.store;

import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;

import java.util.Objects;

/**
 * The six {@code PROC_STATE} ports of one store or one transaction, all on the same connection, as
 * {@link TablePorts} hands them out.
 */
public record ProcStatePorts(
        MessageQueue queue,
        IdentityRegister identities,
        BackfillMarks backfillMarks,
        MessageReplays replays,
        MessageArchive messageArchive,
        MessageQueries messageQueries) {

    public ProcStatePorts {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(identities, "identities");
        Objects.requireNonNull(backfillMarks, "backfillMarks");
        Objects.requireNonNull(replays, "replays");
        Objects.requireNonNull(messageArchive, "messageArchive");
        Objects.requireNonNull(messageQueries, "messageQueries");
    }
}
