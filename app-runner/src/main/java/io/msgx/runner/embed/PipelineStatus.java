package io.msgx.runner.embed;

import java.time.Instant;

/**
 * Where the pipeline stands, as {@code status} prints it (and {@code status --json} serialises it).
 *
 * @param active                   whether this instance holds the leader lease (null when asked from outside)
 * @param watermark                every mailbox ID up to this is enqueued
 * @param holeSince                when the gap after the watermark was first seen; null when there is none
 * @param backlog                  open messages (PENDING + FAILED)
 * @param oldestUnprocessedSeconds age of the oldest open message; 0 when none
 * @param failed                   messages waiting for a retry
 * @param dead                     messages that need an operator
 * @param pendingEvents            outbox rows not yet delivered
 * @param deadEvents               outbox rows parked as dead letters
 * @param owedBackfills            mailbox marks still owed
 * @param abandonedBackfills       mailbox marks given up on, awaiting reconciliation or reopening
 */
public record PipelineStatus(
        Boolean active,
        long watermark,
        Instant holeSince,
        long backlog,
        long oldestUnprocessedSeconds,
        long failed,
        long dead,
        long pendingEvents,
        long deadEvents,
        long owedBackfills,
        long abandonedBackfills) {
}
