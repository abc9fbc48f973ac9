package io.msgx.pipeline.pump;

import io.msgx.pipeline.retry.RetryPolicy;
import java.util.Objects;

/**
 * @param retry              attempts and backoff of failed messages
 * @param ignoreRules        message types deliberately not processed
 * @param identityWithDay    whether the business identity includes the DTTM day
 *                           ({@code msgx.identity.include-day-boundary}; fixed once in production)
 * @param keepRawCopies      the replay channel ({@code msgx.pipeline.replay-channel}): keep our own copy of each
 *                           raw message, and read it when the mailbox row is gone
 */
public record ProcessingSettings(RetryPolicy retry, IgnoreRules ignoreRules, boolean identityWithDay,
                                 boolean keepRawCopies) {

    public ProcessingSettings {
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(ignoreRules, "ignoreRules");
    }

    public static ProcessingSettings defaults() {
        return new ProcessingSettings(RetryPolicy.processingDefaults(), IgnoreRules.baseline(), false, false);
    }
}
