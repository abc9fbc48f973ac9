package io.msgx.runner;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.regex.Pattern;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.BuiltRunner.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An exchange on the real services (MariaDB mailbox, PostgreSQL store, a Kafka broker) scraped through
 * {@code GET /metrics}: the standard meters an operator's dashboards use are there under their Prometheus wire names
 * (docs/operations.md, Metrics): JVM, process, both connection pools, the Kafka producer, the processing timers, the
 * build and the instance's role.
 */
class StandardMetersOnTheWireTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();
    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void metrics_shows_jvm_process_pool_kafka_timer_build_and_role_meters() throws Exception {
        var keys = services.runnerKeysWithKafka();
        keys.putAll(RealServices.freshTopics("meters"));
        keys.put(Keys.HTTP_PORT, "0");
        keys.put(Keys.POLL_INTERVAL, "200ms");
        keys.put(Keys.GROUP_SIZE, "10");
        // Three schedules waiting before the start: the pump takes them as one group.
        long lastOfGroup = 0;
        for (var flight : new String[] {"1001", "1002", "1003"}) {
            lastOfGroup = services.deliver(sis.schedule(fltr(flight, "11MAR240835")));
        }
        long groupEnd = lastOfGroup;

        try (var exchange = MsgExchange.builder().config(keys)
                .meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).build();
             var http = HttpApi.forExchange(exchange).start()) {
            exchange.migrate();
            assertThat(value(scrape(http), "msgx_instance_active")).as("not started: not active").isEqualTo(0);

            exchange.start();
            await("active", exchange::isActive);
            await("the group processed and delivered", () -> drained(exchange, groupEnd));
            long single = services.deliver(sis.schedule(fltr("1004", "11MAR240900"))); // alone
            await("the single message processed and delivered", () -> drained(exchange, single));

            var wire = scrape(http);
            assertThat(value(wire, "msgx_instance_active")).isEqualTo(1);
            var build = BuildInfo.current();
            assertThat(build.version()).isNotEqualTo(BuildInfo.UNKNOWN);
            assertThat(line(wire, "msgx_build_info{")).contains("version=\"" + build.version() + "\"")
                    .contains("java_version=\"" + System.getProperty("java.runtime.version") + "\"")
                    .contains("commit=");
            assertThat(valueStartingWith(wire, "msgx_build_info{")).isEqualTo(1);

            assertThat(value(wire, "msgx_pipeline_message_processing_seconds_count{outcome=\"SUCCEEDED\"}"))
                    .as("every message, grouped or alone").isEqualTo(4);
            assertThat(value(wire, "msgx_pipeline_group_processing_seconds_count")).as("one group of three")
                    .isEqualTo(1);
            assertThat(wire).contains("msgx_pipeline_message_processing_seconds_sum{outcome=\"SUCCEEDED\"}",
                    "msgx_pipeline_group_processing_seconds_max");

            for (var pool : new String[] {"msgx-store", "msgx-mailbox"}) {
                var tag = "{pool=\"" + pool + "\"}";
                assertThat(wire).contains("hikaricp_connections_active" + tag, "hikaricp_connections_idle" + tag,
                        "hikaricp_connections_pending" + tag, "hikaricp_connections" + tag,
                        "hikaricp_connections_max" + tag, "hikaricp_connections_min" + tag,
                        "hikaricp_connections_timeout_total" + tag, "hikaricp_connections_usage_seconds_count" + tag,
                        "hikaricp_connections_creation_seconds_count" + tag);
                assertThat(value(wire, "hikaricp_connections_acquire_seconds_count" + tag)).as(pool).isPositive();
            }
            assertThat(value(wire, "hikaricp_connections_max{pool=\"msgx-mailbox\"}")).isEqualTo(3);

            assertThat(valueStartingWith(wire, "kafka_producer_record_send_total{"))
                    .as("the producer's own count of records sent: 4 flights on msg and schd each").isEqualTo(8);
            assertThat(wire).contains("kafka_producer_request_latency_avg{", "kafka_producer_connection_count{",
                    "kafka_producer_record_error_total{", "kafka_producer_buffer_available_bytes{");

            assertThat(wire).contains("jvm_memory_used_bytes{area=\"heap\"", "jvm_memory_max_bytes{",
                    "jvm_gc_memory_allocated_bytes_total", "jvm_threads_live_threads", "jvm_threads_states_threads{", "jvm_classes_loaded_classes",
                    "jvm_info{", "process_cpu_usage", "system_cpu_usage", "system_cpu_count", "process_uptime_seconds",
                    "process_start_time_seconds", "process_files_open_files", "process_files_max_files");
        }
    }

    /** Intake has reached {@code lastId}, and every message up to it is processed and its events delivered. */
    private boolean drained(MsgExchange exchange, long lastId) {
        var status = exchange.status();
        return status.watermark() >= lastId && status.backlog() == 0 && status.pendingEvents() == 0;
    }

    private String scrape(HttpApi http) throws Exception {
        var response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** The line of the series named exactly {@code series} (name and tags as written). */
    private static String line(String wire, String series) {
        return Arrays.stream(wire.split("\n")).filter(l -> l.startsWith(series)).findFirst()
                .orElseThrow(() -> new AssertionError(series + " not on the wire:\n" + wire));
    }

    private static double value(String wire, String series) {
        var matcher = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(wire);
        assertThat(matcher.find()).as(series + " on the wire:\n" + wire).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    private static double valueStartingWith(String wire, String prefix) {
        var found = line(wire, prefix);
        return Double.parseDouble(found.substring(found.lastIndexOf(' ') + 1));
    }
}
