package io.msgx.runner;

import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/** The README's embedding example, compiled and run against the real local servers. */
class EmbeddingExampleTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void an_airport_service_embeds_the_pipeline_with_a_few_keys() throws Exception {
        long id = services.deliver(new SisMessages().schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));

        // --- README: Embed it ---
        try (var exchange = MsgExchange.builder()
                .config(Map.of(
                        "msgx.store.url", io.msgx.adapter.pg.PgTestDatabase.URL,
                        "msgx.store.user", "postgres",
                        "msgx.store.schema", services.postgres.schema(),
                        "msgx.mailbox.url", services.mailboxUrl(),
                        "msgx.mailbox.user", "root",
                        "msgx.pipeline.poll-interval", "200ms",
                        "msgx.jobs.standby-poll", "200ms"))
                .build()) {
            exchange.migrate();
            exchange.start();
            PipelineStatus status = waitUntilDrained(exchange);
            // --- end of the README example ---

            assertThat(exchange.isActive()).isTrue();
            assertThat(status.watermark()).isEqualTo(id);
            assertThat(status.backlog()).isZero();
            assertThat(status.pendingEvents()).as("no Kafka configured: events wait in the outbox").isEqualTo(2);
        }
        assertThat(services.countInPostgres("select count(*) from flight_schd")).isEqualTo(1);
    }

    private static PipelineStatus waitUntilDrained(MsgExchange exchange) throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            var status = exchange.status();
            if (status.watermark() > 0 && status.backlog() == 0) {
                return status;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the embedded pipeline did not drain within 30 s: " + exchange.status());
    }
}
