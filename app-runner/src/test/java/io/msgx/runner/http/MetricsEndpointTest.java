package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsEndpointTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpApi api = new HttpApi(HttpFixture.settings(null, 1024, Duration.ofSeconds(1)), null, List.of(),
            registry).start();
    private final HttpFixture http = new HttpFixture(api);

    @AfterEach
    void stop() {
        api.stop(Duration.ofSeconds(1));
    }

    @Test
    void a_registered_counter_shows_in_prometheus_text_format() throws Exception {
        registry.counter("msgx.test.hits", "kind", "demo").increment(3);

        var response = http.get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).contains("# TYPE msgx_test_hits_total counter")
                .contains("msgx_test_hits_total{kind=\"demo\"} 3.0");
    }

    @Test
    void post_on_metrics_is_405() throws Exception {
        var response = http.send(java.net.http.HttpRequest.newBuilder(http.uri("/metrics"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));

        assertThat(response.statusCode()).isEqualTo(405);
    }
}
