package io.msgx.runner.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A loop's last sign of life, for {@code /health/live}: a run started, a run ended, or a run in progress reported
 * progress ({@link JobRunner#beat}).
 *
 * @param job          the loop's name
 * @param period       its period: how often it runs when idle
 * @param lastSign     the last start, end or progress of a run (at first, when its schedule started)
 * @param runningSince when the run in progress started; null between runs
 */
public record JobPulse(String job, Duration period, Instant lastSign, Instant runningSince) {

    public JobPulse {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(lastSign, "lastSign");
    }
}
