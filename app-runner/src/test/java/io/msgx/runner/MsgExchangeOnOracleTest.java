package io.msgx.runner;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.oracle.OracleSchema;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.cli.Main;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Collectors;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.BuiltRunner.await;
import static io.msgx.runner.ExchangeWaits.waitUntilDrained;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The runner with {@code msgx.store.kind=oracle} (H2 in {@code MODE=Oracle} here, a real Oracle when
 * {@code MSGX_TEST_ORACLE_URL} is set): {@code migrate} through the CLI, then start, process from the real MariaDB
 * mailbox, {@code status}, readiness; a schema of another version refused at start-up; the hot standby.
 */
class MsgExchangeOnOracleTest {

    @RegisterExtension
    final RealServices services = RealServices.onUnmigratedOracle();

    private final SisMessages sis = new SisMessages();

    @Test
    void migrate_through_the_cli_then_start_processes_the_mailbox_reports_status_and_is_ready() throws Exception {
        long id = services.deliver(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
        var file = configFile();

        assertThat(Main.execute("migrate", "-c", file.toString())).isZero();
        assertThat(Main.execute("migrate", "-c", file.toString())).as("a second migrate is a no-op").isZero();
        assertThat(OracleSchema.versionOf(services.storeDataSource())).isEqualTo(OracleSchema.CURRENT_VERSION);

        try (var exchange = MsgExchange.builder().config(keys())
                .meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).build()) {
            assertThat(exchange.migrate()).as("current already").isZero();
            assertThat(exchange.storeDescription()).contains("schema");
            exchange.start();
            var status = waitUntilDrained(exchange);

            assertThat(exchange.isActive()).isTrue();
            assertThat(status.watermark()).isEqualTo(id);
            assertThat(status.backlog()).isZero();
            assertThat(status.pendingEvents()).as("no Kafka configured: events wait in the outbox").isEqualTo(2);

            var http = HttpApi.forExchange(exchange).start();
            try {
                var ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + http.port() + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
                assertThat(ready.body()).contains("\"store\"");
            } finally {
                http.close();
            }
        }
        assertThat(services.countInStore("select count(*) from flight_schd")).isEqualTo(1);
        assertThat(services.countInStore("select count(*) from proc_state where state = 'SUCCEEDED' and msg_id = " + id))
                .isEqualTo(1);
        assertThat(Main.execute("status", "--json", "-c", file.toString())).isZero();
    }

    @Test
    void start_refuses_a_schema_never_migrated_naming_found_and_expected_versions() {
        assumeFalse(services.oracle.isRealOracle(), "a real Oracle's test schema is migrated once per run");
        try (var exchange = MsgExchange.builder().config(keys()).build()) {
            assertThatThrownBy(exchange::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("found version none, expected " + OracleSchema.CURRENT_VERSION)
                    .hasMessageContaining("run 'migrate'");
            assertThat(exchange.isActive()).isFalse();
        }
    }

    @Test
    void start_refuses_a_schema_migrated_by_a_newer_build() throws Exception {
        int newer = OracleSchema.CURRENT_VERSION + 1;
        try (var exchange = MsgExchange.builder().config(keys()).build()) {
            exchange.migrate();
            execute("INSERT INTO MSGX_SCHEMA_VERSION (VERSION, DESCRIPTION, SCRIPT, CHECKSUM, INSTALLED_AT) VALUES ("
                    + newer + ", 'from a newer build', 'V" + newer + "__future.sql', NULL,"
                    + " CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP))");
            try {
                assertThatThrownBy(exchange::start)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("at version " + newer)
                        .hasMessageContaining("expected " + OracleSchema.CURRENT_VERSION)
                        .hasMessageContaining("newer build");
                assertThat(exchange.isActive()).isFalse();
            } finally {
                execute("DELETE FROM MSGX_SCHEMA_VERSION WHERE VERSION = " + newer);
            }
        }
    }

    @Test
    void start_refuses_a_schema_behind_this_build() throws Exception {
        assumeFalse(services.oracle.isRealOracle(), "would leave a shared real Oracle schema behind");
        try (var exchange = MsgExchange.builder().config(keys()).build()) {
            exchange.migrate();
            execute("DELETE FROM MSGX_SCHEMA_VERSION WHERE VERSION = " + OracleSchema.CURRENT_VERSION);
            var versions = OracleSchema.versions();

            assertThatThrownBy(exchange::start)
                    .isInstanceOf(IllegalStateException.class)
                    // The version before the current one: versions may skip numbers (D-147).
                    .hasMessageContaining("at version " + versions.get(versions.size() - 2))
                    .hasMessageContaining("expected " + OracleSchema.CURRENT_VERSION)
                    .hasMessageContaining("run 'migrate'");
        }
    }

    @Test
    void a_second_instance_waits_as_a_hot_standby_and_takes_over_when_the_first_stops() throws Exception {
        var first = MsgExchange.builder().config(keys()).build();
        try (var second = MsgExchange.builder().config(keys()).build()) {
            first.migrate();
            first.start();
            await("the first instance active", first::isActive);
            second.start();
            Thread.sleep(1_500);
            assertThat(second.isActive()).as("the lease is held by the first").isFalse();

            first.close();
            await("the standby takes over", second::isActive);
            long id = services.deliver(sis.schedule(fltr("2001", "11MAR240900", "FLNO", "HU7181")));
            await("the new active instance processes", () -> second.status().watermark() >= id
                    && second.status().backlog() == 0);
        } finally {
            first.close();
        }
    }

    private Map<String, String> keys() {
        var keys = services.runnerKeys();
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.jobs.standby-poll", "200ms");
        keys.put("msgx.http.port", "0");
        return keys;
    }

    private Path configFile() throws IOException {
        var file = Files.createTempFile("msgx-oracle", ".properties");
        Files.writeString(file, keys().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")), StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return file;
    }

    private void execute(String sql) throws SQLException {
        try (var connection = services.storeDataSource().getConnection(); var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
