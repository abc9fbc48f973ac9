package io.msgx.runner;

import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.kafka.KafkaTopics;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;
import io.msgx.runner.jobs.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.ExchangeWaits.waitUntilDrained;
import static org.assertj.core.api.Assertions.assertThat;

/** The README's embedding example, compiled and run against the real local servers. */
class EmbeddingExampleTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void an_airport_service_embeds_the_pipeline_with_a_few_keys() throws Exception {
        long id = services.deliver(new SisMessages().schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
        // the cluster provides the topics (D-71); here the test broker, with the default names the example uses
        KafkaTopics.ensure(KafkaSinkSettings.defaults(KafkaTestBroker.bootstrapServers()), 1, (short) 1);

        // --- README: Embed it ---
        try (var exchange = MsgExchange.builder()
                .config(Map.of(
                        "msgx.store.url", io.msgx.adapter.pg.PgTestDatabase.URL,
                        "msgx.store.user", "postgres",
                        "msgx.store.schema", services.postgres.schema(),
                        "msgx.mailbox.url", services.mailboxUrl(),
                        "msgx.mailbox.user", "root",
                        "msgx.pipeline.poll-interval", "200ms",
                        "msgx.kafka.bootstrap-servers", KafkaTestBroker.bootstrapServers(),
                        "msgx.jobs.standby-poll", "200ms"))
                .build()) {
            exchange.migrate();
            exchange.start();
            PipelineStatus status = waitUntilDrained(exchange);
            // --- end of the README example ---

            assertThat(exchange.isActive()).isTrue();
            assertThat(status.watermark()).isEqualTo(id);
            assertThat(status.backlog()).isZero();
            var deadline = Instant.now().plus(Duration.ofSeconds(30));
            while (exchange.status().pendingEvents() > 0) {
                assertThat(Instant.now()).as("the two events reach Kafka within 30 s").isBefore(deadline);
                Thread.sleep(100);
            }
            assertThat(exchange.status().deadEvents()).isZero();
        }
        assertThat(services.countInPostgres("select count(*) from flight_schd")).isEqualTo(1);
    }

    /**
     * The embedding service goes on running: closing the exchange ends every thread it started (its jobs, the lease
     * watcher, the pump's read-ahead of the next group, the connection pools' housekeepers). Groups of two over a
     * backlog of seven, so the read-ahead runs.
     */
    @Test
    void closing_the_exchange_ends_every_thread_it_started() throws Exception {
        var sis = new SisMessages();
        long last = 0;
        for (int i = 0; i < 7; i++) {
            last = services.deliver(sis.schedule(fltr(Integer.toString(2001 + i), "11MAR240835")));
        }
        var threadsBefore = pipelineThreads();
        var keys = services.runnerKeys();
        keys.put("msgx.pipeline.group-size", "2");
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.migrate();
            exchange.start();
            assertThat(waitUntilDrained(exchange).watermark()).isEqualTo(last);
            assertThat(pipelineThreads()).extracting(Thread::getName).contains("msgx-read-ahead", "msgx-pump");
        }

        var deadline = Instant.now().plus(Duration.ofSeconds(10));
        Set<Thread> left;
        do {
            Thread.sleep(100);
            left = new HashSet<>(pipelineThreads());
            left.removeAll(threadsBefore);
        } while (!left.isEmpty() && Instant.now().isBefore(deadline));
        assertThat(left).as("threads the exchange started, alive 10 s after close").extracting(Thread::getName).isEmpty();
    }

    /** The live threads named as the pipeline names its own ({@code msgx-...}). */
    private static Set<Thread> pipelineThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith(JobRunner.THREAD_PREFIX))
                .collect(Collectors.toSet());
    }
}
