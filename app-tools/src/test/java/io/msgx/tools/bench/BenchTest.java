package io.msgx.tools.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.RunnerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The whole bench at a tiny size against the local PostgreSQL and MariaDB and an in-process Kafka broker: the
 * report must be complete and sane. No timing assertions: this machine's speed is not the subject.
 */
class BenchTest {

    private TestMailboxDatabase mailbox;
    private String schema;

    @TempDir
    Path dir;

    @BeforeEach
    void ground() {
        mailbox = TestMailboxDatabase.create();
        schema = "msgx_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
    }

    @AfterEach
    void dropGround() throws Exception {
        try (var connection = DriverManager.getConnection(PgTestDatabase.URL, PgTestDatabase.USER, PgTestDatabase.PASSWORD);
             var statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        } finally {
            mailbox.close();
        }
    }

    @Test
    void a_tiny_bench_yields_a_complete_sane_report_and_a_second_run_without_reset_is_refused() throws Exception {
        var config = config();
        var json = dir.resolve("bench-result.json");
        var parameters = new BenchParameters(2_000, 500, 100, 3, 1, 3, false, 7, 100, 100, 1, 600, json.toString());
        var log = new StringWriter();

        var report = new Bench(config, parameters, Clock.systemUTC(), new PrintWriter(log, true)).run();
        report.writeJson(json);
        report.print(new PrintWriter(log, true));
        System.out.println(log);

        for (var digest : List.of(report.smallDigest(), report.fullDigest())) {
            assertThat(digest.allTerminal()).as("every message terminal\n" + log).isTrue();
            assertThat(digest.succeeded() + digest.skipped() + digest.dead()).isEqualTo(digest.messages());
            assertThat(digest.succeeded()).isPositive();
            assertThat(digest.messagesPerSecond()).isPositive();
            assertThat(digest.microsPerMessage()).isPositive();
            assertThat(digest.outboxDrained()).isTrue();
            assertThat(digest.eventsDelivered()).isPositive();
            assertThat(digest.eventsPerSecond()).isPositive();
            assertThat(digest.secondsToOutboxDrained()).isGreaterThanOrEqualTo(digest.secondsToTerminal());
            assertThat(digest.fill().rows()).isEqualTo(digest.messages());
        }
        assertThat(report.smallDigest().messages()).isEqualTo(500);
        assertThat(report.fullDigest().messages()).isEqualTo(2_000);

        var live = report.live();
        assertThat(live.fed()).isEqualTo(300);
        assertThat(live.notTerminal()).isZero();
        assertThat(live.commitToAck().count()).as("live messages that published a notification").isPositive();
        assertThat(live.commitToAck().count() + live.withoutEvents()).isEqualTo(live.fed());
        assertThat(live.commitToAck().p50Millis()).isPositive().isLessThanOrEqualTo(live.commitToAck().p99Millis());
        assertThat(live.commitToAck().p99Millis()).isLessThanOrEqualTo(live.commitToAck().maxMillis());
        assertThat(live.commitToTerminal().count()).isEqualTo(live.fed());
        assertThat(live.commitToTerminal().p50Millis()).isLessThanOrEqualTo(live.commitToTerminal().p99Millis());

        assertThat(report.dispatch().rearmed()).as("every delivered event made due again").isPositive();
        assertThat(report.dispatch().delivered()).isGreaterThanOrEqualTo(report.dispatch().rearmed());
        assertThat(report.dispatch().eventsPerSecond()).isPositive();
        assertThat(report.memory().peakHeapBytes()).isPositive().isLessThanOrEqualTo(report.memory().maxHeapBytes());
        assertThat(report.memory().peakRssBytes()).isPositive();
        assertThat(report.commitBaseline().commitsPerSecond()).isPositive();
        assertThat(report.producerBaseline().records()).isEqualTo(report.fullDigest().eventsDelivered());
        assertThat(report.producerBaseline().acknowledged()).isEqualTo(report.producerBaseline().records());
        assertThat(report.producerBaseline().recordsPerSecond()).isPositive();
        var runs = report.producerBaseline().runsRecordsPerSecond();
        assertThat(runs).as("one rate per producer run").hasSize(3).allSatisfy(rate -> assertThat(rate).isPositive());
        assertThat(report.producerBaseline().recordsPerSecond()).as("the median run's rate")
                .isEqualTo(runs.stream().sorted().toList().get(1));
        assertThat(report.producerBaseline().meanPayloadBytes()).isPositive();
        assertThat(report.ratios().digestToBareCommit()).isPositive();
        assertThat(report.ratios().dispatchToRawProducer()).isPositive();
        assertThat(report.ratios().costFullToSmall()).isPositive();
        assertThat(report.targets()).hasSize(5);
        assertThat(report.machine().cores()).isPositive();
        assertThat(report.machine().postgresVersion()).isNotBlank();

        var tree = new ObjectMapper().readTree(json.toFile());
        assertThat(tree.at("/fullDigest/messagesPerSecond").asDouble()).isPositive();
        assertThat(tree.at("/ratios/digestToBareCommit").asDouble()).isPositive();
        assertThat(tree.at("/live/commitToAck/p99Millis").asDouble()).isPositive();
        assertThat(tree.at("/machine/javaVersion").asText()).isNotBlank();
        assertThat(tree.at("/parameters/messages").asLong()).isEqualTo(2_000);
        assertThat(tree.at("/memory/maxHeapBytes").asLong()).isPositive();

        var again = new Bench(config, parameters, Clock.systemUTC(), new PrintWriter(new StringWriter()));
        assertThatThrownBy(again::run).isInstanceOf(Bench.RefusedException.class)
                .hasMessageContaining("--reset").hasMessageContaining("CMINMSGS");
    }

    private RunnerConfig config() {
        var keys = new HashMap<String, String>();
        keys.put("msgx.store.url", PgTestDatabase.URL);
        keys.put("msgx.store.user", PgTestDatabase.USER);
        keys.put("msgx.store.password", PgTestDatabase.PASSWORD);
        keys.put("msgx.store.schema", schema);
        keys.put("msgx.mailbox.url", mailbox.url()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true");
        keys.put("msgx.mailbox.user", TestMailboxDatabase.server().user());
        if (!TestMailboxDatabase.server().password().isEmpty()) {
            keys.put("msgx.mailbox.password", TestMailboxDatabase.server().password());
        }
        keys.put("msgx.kafka.bootstrap-servers", KafkaTestBroker.bootstrapServers());
        keys.put("msgx.kafka.topic.msg", KafkaTestBroker.uniqueTopic("bench-msg"));
        keys.put("msgx.kafka.topic.schd", KafkaTestBroker.uniqueTopic("bench-schd"));
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.dispatch.interval", "100ms");
        return RunnerConfig.from(ConfigSource.of(keys));
    }
}
