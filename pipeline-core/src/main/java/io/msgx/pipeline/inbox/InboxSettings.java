package io.msgx.pipeline.inbox;

import java.time.Duration;
import java.util.Objects;

/**
 * @param claimBatch     rows read from the mailbox per round ({@code msgx.pipeline.claim-batch})
 * @param maxCommitDelay how long a gap in the IDs may stay open before it is taken as permanent
 *                       ({@code msgx.pipeline.max-commit-delay}); the longest a late commit can be waited for
 */
public record InboxSettings(int claimBatch, Duration maxCommitDelay) {

    public InboxSettings {
        Objects.requireNonNull(maxCommitDelay, "maxCommitDelay");
        if (claimBatch < 1) {
            throw new IllegalArgumentException("msgx.pipeline.claim-batch must be at least 1, got " + claimBatch);
        }
        if (maxCommitDelay.isNegative() || maxCommitDelay.isZero()) {
            throw new IllegalArgumentException("msgx.pipeline.max-commit-delay must be positive, got " + maxCommitDelay);
        }
    }

    /** 200 rows a round; a gap waits up to 30 s for its late commit. */
    public static InboxSettings defaults() {
        return new InboxSettings(200, Duration.ofSeconds(30));
    }
}
