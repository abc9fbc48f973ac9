package io.msgx.runner.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * When a loop counts as stale (D-70): it gave no sign of life — no run started, ended or reported progress — for
 * {@code periods} of its periods, and never sooner than {@code grace}.
 *
 * <p>One rule covers the two ways a loop dies: a schedule that ended (no run starts any more) and a run that hangs
 * (it started, and then nothing). A long run that is working is not a hang: the loops that may run long by design
 * (intake draining a backlog, the pump ticking through a big group after group, the dispatcher delivering a backlog)
 * report progress after each step. The grace covers the single steps that may legitimately take long: one store call
 * is bounded by {@code msgx.store.socket-timeout} (90 s), one delivery by the Kafka delivery timeout (30 s); a loop
 * with a period of 50 ms (the pump) must not be declared dead during one of those. With the defaults (10 periods,
 * 5 minutes) the grace decides for every loop but housekeeping (10 min period: 100 minutes).
 */
public record LivenessPolicy(int periods, Duration grace) {

    public LivenessPolicy {
        Objects.requireNonNull(grace, "grace");
        if (periods < 1) {
            throw new IllegalArgumentException("msgx.health.liveness-periods must be at least 1, was " + periods);
        }
        if (grace.isNegative()) {
            throw new IllegalArgumentException("msgx.health.liveness-grace must not be negative, was " + grace);
        }
    }

    /** A loop that gave no sign of life for longer than it is allowed. */
    public record Stale(String job, Instant lastSign, Duration silentFor, Duration allowed, Instant runningSince) {
    }

    /** How long a loop of this period may go without a sign of life: {@code periods} × period, at least the grace. */
    public Duration allowance(Duration period) {
        var periodsLong = period.multipliedBy(periods);
        return periodsLong.compareTo(grace) > 0 ? periodsLong : grace;
    }

    /** The stale loops among {@code pulses} at {@code now}, in the given order. */
    public List<Stale> stale(List<JobPulse> pulses, Instant now) {
        return pulses.stream().filter(pulse -> Duration.between(pulse.lastSign(), now).compareTo(allowance(pulse.period())) > 0)
                .map(pulse -> new Stale(pulse.job(), pulse.lastSign(), Duration.between(pulse.lastSign(), now),
                        allowance(pulse.period()), pulse.runningSince()))
                .toList();
    }
}
