package io.msgx.pipeline.pump;

import io.msgx.pipeline.mailbox.AcceptedStatuses;
import io.msgx.pipeline.retry.RetryPolicy;

import java.util.Objects;

/**
 * @param retry              attempts and backoff of failed messages
 * @param ignoreRules        message types deliberately not processed
 * @param identityWithDay    whether the business identity includes the DTTM day
 *                           ({@code msgx.identity.include-day-boundary}; fixed once in production)
 * @param keepRawCopies      the replay channel ({@code msgx.pipeline.replay-channel}): keep our own copy of each
 *                           raw message, and read it when the mailbox row is gone
 * @param groupSize          at most this many head messages share one business transaction
 *                           ({@code msgx.pipeline.group-size}); 1 processes every message alone
 * @param flightCacheSize    flights the pump keeps in memory between transactions ({@link FlightCache},
 *                           {@code msgx.pipeline.flight-cache-size}); 0 reads every flight whole from the store
 * @param seqnResetWindow    how far a sender's numeric {@code SEQN} may fall below the highest seen before it counts as
 *                           a restarted sequence ({@code msgx.identity.seqn-reset-window}, D-86)
 * @param acceptedStatuses   the mailbox statuses that make a row a message ({@code msgx.mailbox.accepted-statuses},
 *                           D-110); a row with another status ends {@code SKIPPED(status:<value>)} unread
 */
public record ProcessingSettings(RetryPolicy retry, IgnoreRules ignoreRules, boolean identityWithDay,
                                 boolean keepRawCopies, int groupSize, int flightCacheSize, long seqnResetWindow,
                                 AcceptedStatuses acceptedStatuses) {

    /** The default {@link #seqnResetWindow}: far beyond any reordering, far below a day's traffic. */
    public static final long DEFAULT_SEQN_RESET_WINDOW = 10_000;

    /** The default {@link #groupSize}: large enough to amortise a commit, small enough to keep a group's lock short. */
    public static final int DEFAULT_GROUP_SIZE = 300;

    public ProcessingSettings {
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(ignoreRules, "ignoreRules");
        Objects.requireNonNull(acceptedStatuses, "acceptedStatuses");
        if (groupSize < 1 || groupSize > 1000) {
            throw new IllegalArgumentException("msgx.pipeline.group-size must be 1 to 1000, got " + groupSize);
        }
        if (seqnResetWindow < 1) {
            throw new IllegalArgumentException("msgx.identity.seqn-reset-window must be 1 or more, got " + seqnResetWindow);
        }
        if (flightCacheSize < 0) {
            throw new IllegalArgumentException("msgx.pipeline.flight-cache-size must be 0 or more, got "
                    + flightCacheSize);
        }
    }

    /** Settings with the default {@link #acceptedStatuses} ({@code VALID}). */
    public ProcessingSettings(RetryPolicy retry, IgnoreRules ignoreRules, boolean identityWithDay,
                              boolean keepRawCopies, int groupSize, int flightCacheSize, long seqnResetWindow) {
        this(retry, ignoreRules, identityWithDay, keepRawCopies, groupSize, flightCacheSize, seqnResetWindow,
                AcceptedStatuses.defaults());
    }

    /** Settings with the default {@link #seqnResetWindow}. */
    public ProcessingSettings(RetryPolicy retry, IgnoreRules ignoreRules, boolean identityWithDay,
                              boolean keepRawCopies, int groupSize, int flightCacheSize) {
        this(retry, ignoreRules, identityWithDay, keepRawCopies, groupSize, flightCacheSize, DEFAULT_SEQN_RESET_WINDOW);
    }

    /** Settings with the default {@link #flightCacheSize}. */
    public ProcessingSettings(RetryPolicy retry, IgnoreRules ignoreRules, boolean identityWithDay,
                              boolean keepRawCopies, int groupSize) {
        this(retry, ignoreRules, identityWithDay, keepRawCopies, groupSize, FlightCache.DEFAULT_CAPACITY);
    }

    public static ProcessingSettings defaults() {
        return new ProcessingSettings(RetryPolicy.processingDefaults(), IgnoreRules.baseline(), false, false,
                DEFAULT_GROUP_SIZE);
    }

    /** These settings with another {@link #groupSize}. */
    public ProcessingSettings withGroupSize(int size) {
        return new ProcessingSettings(retry, ignoreRules, identityWithDay, keepRawCopies, size, flightCacheSize,
                seqnResetWindow, acceptedStatuses);
    }

    /** These settings with another {@link #flightCacheSize}. */
    public ProcessingSettings withFlightCacheSize(int size) {
        return new ProcessingSettings(retry, ignoreRules, identityWithDay, keepRawCopies, groupSize, size,
                seqnResetWindow, acceptedStatuses);
    }

    /** These settings with other {@link #acceptedStatuses}. */
    public ProcessingSettings withAcceptedStatuses(AcceptedStatuses statuses) {
        return new ProcessingSettings(retry, ignoreRules, identityWithDay, keepRawCopies, groupSize, flightCacheSize,
                seqnResetWindow, statuses);
    }
}
