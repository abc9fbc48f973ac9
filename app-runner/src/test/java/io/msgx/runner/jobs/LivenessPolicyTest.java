package io.msgx.runner.jobs;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** D-70: a loop is stale after N of its periods without a sign of life, never sooner than the grace. */
class LivenessPolicyTest {

    private static final Instant T0 = Instant.parse("2024-03-11T00:00:00Z");
    private final LivenessPolicy policy = new LivenessPolicy(10, Duration.ofMinutes(5));

    @Test
    void the_allowance_is_n_periods_but_never_less_than_the_grace() {
        assertThat(policy.allowance(Duration.ofMillis(50))).as("the pump").isEqualTo(Duration.ofMinutes(5));
        assertThat(policy.allowance(Duration.ofMinutes(10))).as("housekeeping").isEqualTo(Duration.ofMinutes(100));
    }

    @Test
    void a_loop_is_stale_only_past_its_allowance_whether_idle_or_in_a_run() {
        var pulses = List.of(
                new JobPulse("pump", Duration.ofMillis(50), T0, null),
                new JobPulse("dispatcher", Duration.ofMillis(500), T0.plusSeconds(10), T0.minusSeconds(60)),
                new JobPulse("archive", Duration.ofMinutes(10), T0, T0));
        var at = T0.plus(Duration.ofMinutes(5)).plusMillis(1);

        var stale = policy.stale(pulses, at);

        assertThat(stale).extracting(LivenessPolicy.Stale::job).containsExactly("pump");
        assertThat(stale.get(0).lastSign()).isEqualTo(T0);
        assertThat(policy.stale(pulses, T0.plus(Duration.ofMinutes(5)))).as("exactly at the allowance: not yet").isEmpty();
        assertThat(policy.stale(pulses, T0.plus(Duration.ofMinutes(101)))).extracting(LivenessPolicy.Stale::job)
                .containsExactly("pump", "dispatcher", "archive");
    }

    @Test
    void a_report_is_live_without_stale_loops_and_without_a_fatal_error() {
        assertThat(LivenessReport.alive().live()).isTrue();
        assertThat(new LivenessReport(List.of(), "pump: java.lang.StackOverflowError").live()).isFalse();
        assertThat(new LivenessReport(policy.stale(List.of(new JobPulse("pump", Duration.ofMillis(50), T0, null)),
                T0.plus(Duration.ofHours(1))), null).live()).isFalse();
    }

    @Test
    void a_policy_needs_at_least_one_period() {
        assertThatThrownBy(() -> new LivenessPolicy(0, Duration.ZERO)).hasMessageContaining("msgx.health.liveness-periods");
    }
}
