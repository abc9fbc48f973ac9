package io.msgx.pipeline.pump;

import io.msgx.pipeline.retry.RetryPolicy;
import java.util.Objects;

/**
 * @param retry              attempts and backoff of failed messages
 * @param ignoreRules        message types deliberately not processed
 * @param identityWithDay    whether the business identity includes the DTTM day
 *                           ({@code msgx.identity.include-day-boundary}; fixed once in production)
 */
public record ProcessingSettings(RetryPolicy retry, IgnoreRules ignoreRules, boolean identityWithDay) {

    public ProcessingSettings {
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(ignoreRules, "ignoreRules");
    }

    public static ProcessingSettings defaults() {
        return new ProcessingSettings(RetryPolicy.processingDefaults(), IgnoreRules.baseline(), false);
    }
}
