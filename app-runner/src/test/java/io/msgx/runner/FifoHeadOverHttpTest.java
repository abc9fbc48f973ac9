package io.msgx.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, "the FIFO head, visible": a running exchange whose head is unknown traffic shows it — which message, what
 * kind, in which state, since when and what holds it — in {@code /health/ready}'s body, in the console's overview, and
 * as the {@code blocked} gauge on {@code /metrics}; the message behind it waits.
 */
class FifoHeadOverHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();

    @Test
    void a_head_held_by_unknown_traffic_is_shown_by_readiness_the_console_and_the_gauge() throws Exception {
        long stuck = services.deliver(sis.other("ZZZZ", "X"));
        long behind = services.deliver(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
        try (var running = RunningExchange.start(services.runnerKeys())) {
            var exchange = running.exchange();
            RunningExchange.await("the unknown kind fails its first attempt", 30, () ->
                    exchange.store().queue().find(stuck).map(r -> r.status() == ProcStatus.FAILED).orElse(false));
            showsTheHead(running, stuck, behind);
        }
    }

    private static void showsTheHead(RunningExchange running, long stuck, long behind) throws Exception {
        var exchange = running.exchange();
        var ready = running.get("/health/ready");
        var head = JSON.readTree(ready.body()).get("head");
        assertThat(ready.statusCode()).as("a held head is degraded, not unready").isEqualTo(200);
        assertHead(head, stuck);

        var overview = JSON.readTree(running.get("/console/api/overview").body());
        assertHead(overview.get("head"), stuck);
        assertThat(overview.get("display").get("head").asText()).startsWith(stuck + " ZZZZ-X FAILED(UNSUPPORTED)")
                .contains("blocked by unsupported");
        assertThat(overview.get("warn").get("head").asBoolean()).isTrue();
        assertThat(running.get("/console/").body()).contains("data-card=\"head\"").contains("FIFO head");

        assertThat(running.get("/metrics").body()).contains("msgx_pipeline_head_blocked{reason=\"unsupported\"} 1.0",
                "msgx_pipeline_head_blocked{reason=\"hole\"} 0.0", "msgx_pipeline_head_age_seconds");
        assertThat(exchange.store().queue().find(behind).orElseThrow().status()).as("it waits behind the head")
                .isEqualTo(ProcStatus.PENDING);
    }

    private static void assertHead(JsonNode head, long stuck) {
        assertThat(head.get("msgId").asLong()).isEqualTo(stuck);
        assertThat(head.get("kind").asText()).isEqualTo("ZZZZ-X");
        assertThat(head.get("state").asText()).isEqualTo("FAILED");
        assertThat(head.get("errorClass").asText()).isEqualTo("UNSUPPORTED");
        assertThat(head.get("attempts").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(head.get("blockedBy").asText()).isEqualTo("unsupported");
        assertThat(head.get("nextAttemptAt").asText()).isNotEmpty();
        assertThat(head.get("ageSeconds").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(head.get("lastError").asText()).contains("no processor handles ZZZZ-X");
    }
}
