package io.msgx.pipeline.record;

import java.time.Instant;

/**
 * The single-row consumption cursor ({@code INBOX_CURSOR}).
 *
 * @param watermark every mailbox ID in {@code (start, watermark]} is enqueued (W)
 * @param holeSince when the gap at {@code watermark + 1} was first seen; null when there is none
 * @param seededAt  when cut-over seeding set the watermark; null when never seeded (which does not mean
 *                  never consumed)
 */
public record InboxCursor(long watermark, Instant holeSince, Instant seededAt) {

    public InboxCursor {
        if (watermark < 0) {
            throw new IllegalArgumentException("the watermark is never negative, got " + watermark);
        }
    }
}
