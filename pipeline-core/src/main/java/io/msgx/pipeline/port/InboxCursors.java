package io.msgx.pipeline.port;

import io.msgx.pipeline.record.InboxCursor;

import java.time.Instant;

/** {@code INBOX_CURSOR}: one row, created by the schema with watermark 0. */
public interface InboxCursors {

    InboxCursor load();

    /** Overwrite the watermark and the hole timer. */
    void save(long watermark, Instant holeSince);

    /**
     * Cut-over seeding, one statement: set the watermark and {@code SEEDED_AT}, and clear the hole timer, only on a
     * fresh instance (never seeded, watermark 0, no processing record at all). False when the instance is not fresh.
     */
    boolean seed(long watermark, Instant seededAt);
}
