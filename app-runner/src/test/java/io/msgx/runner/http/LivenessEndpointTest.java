package io.msgx.runner.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.runner.jobs.LivenessPolicy;
import io.msgx.runner.jobs.LivenessReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** D-70: {@code /health/live}'s body names each stale loop and since when, and the fatal error. */
class LivenessEndpointTest {

    @Test
    void up_is_just_the_status() throws Exception {
        var json = new ObjectMapper().readTree(LivenessEndpoint.toJson(LivenessReport.alive()));
        assertThat(json.toString()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void down_names_the_stale_loop_its_last_sign_of_life_and_its_run_in_progress() throws Exception {
        var since = Instant.parse("2024-03-11T03:00:00Z");
        var report = new LivenessReport(List.of(new LivenessPolicy.Stale("pump", since, Duration.ofMinutes(7),
                Duration.ofMinutes(5), since)), "lease-watcher: java.lang.StackOverflowError");

        var json = new ObjectMapper().readTree(LivenessEndpoint.toJson(report));

        assertThat(json.get("status").asText()).isEqualTo("DOWN");
        var stale = json.get("stale").get(0);
        assertThat(stale.get("job").asText()).isEqualTo("pump");
        assertThat(stale.get("lastSign").asText()).isEqualTo("2024-03-11T03:00:00Z");
        assertThat(stale.get("silentSeconds").asLong()).isEqualTo(420);
        assertThat(stale.get("allowedSeconds").asLong()).isEqualTo(300);
        assertThat(stale.get("runningSince").asText()).isEqualTo("2024-03-11T03:00:00Z");
        assertThat(json.get("fatal").asText()).isEqualTo("lease-watcher: java.lang.StackOverflowError");
    }
}
