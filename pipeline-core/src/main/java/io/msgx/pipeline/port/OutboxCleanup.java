package io.msgx.pipeline.port;

import java.time.Instant;

/** Deleting delivered outbox rows once their retention has passed. */
public interface OutboxCleanup {

    /**
     * Delete {@code SENT} rows sent and written before {@code cutoff} ({@code SENT_AT} and {@code CREATED_AT} both
     * before it), at most {@code limit}; returns how many. Called again while it returns {@code limit}, it deletes
     * every such row. {@code PENDING} and {@code DEAD} rows are never deleted. A row is sent after it was written, so
     * the second condition only keeps, until a later cutoff, a row whose clocks disagree (D-49).
     */
    int deleteSentBefore(Instant cutoff, int limit);
}
