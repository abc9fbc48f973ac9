package io.msgx.tools.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LatenciesTest {

    @Test
    void nearest_rank_percentiles_in_milliseconds_from_microseconds() {
        var micros = new ArrayList<Long>();
        for (long i = 100; i >= 1; i--) {
            micros.add(i * 1_000);
        }
        var latencies = Latencies.of(micros);
        assertThat(latencies.count()).isEqualTo(100);
        assertThat(latencies.p50Millis()).isEqualTo(50.0);
        assertThat(latencies.p99Millis()).isEqualTo(99.0);
        assertThat(latencies.maxMillis()).isEqualTo(100.0);
        assertThat(latencies.meanMillis()).isEqualTo(50.5);
    }

    @Test
    void no_samples_give_zeros_and_one_sample_is_every_percentile() {
        assertThat(Latencies.of(List.of()).count()).isZero();
        var one = Latencies.of(List.of(1_500L));
        assertThat(one.p50Millis()).isEqualTo(1.5);
        assertThat(one.p99Millis()).isEqualTo(1.5);
        assertThat(one.maxMillis()).isEqualTo(1.5);
    }
}
