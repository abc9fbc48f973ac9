package io.msgx.pipeline.inbox;

import java.time.Instant;

/** What one round of the {@link InboxPoller} did. */
public sealed interface PollResult {

    /** The mailbox could not be read; the watermark did not move. */
    record MailboxUnavailable(String reason) implements PollResult {
    }

    /** Rows up to {@code watermark} are enqueued; no gap holds intake back. */
    record Advanced(int enqueued, long watermark) implements PollResult {
    }

    /**
     * Intake stops before a gap at {@code missingId}: rows after it wait until it fills or ages out at
     * {@code holeSince + max-commit-delay}.
     */
    record HeldAtHole(int enqueued, long watermark, long missingId, Instant holeSince) implements PollResult {
    }

    /** A gap aged out: IDs {@code skippedFrom..skippedTo} are given up and the watermark moved past them only. */
    record HoleReleased(long watermark, long skippedFrom, long skippedTo) implements PollResult {
    }
}
