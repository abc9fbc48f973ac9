package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpApiLifecycleTest {

    private static HttpApi api() {
        return new HttpApi(HttpFixture.settings(null, 1024, Duration.ofSeconds(1)), null, List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    @Test
    void port_zero_picks_a_free_port_and_stop_is_prompt_and_final() throws Exception {
        var api = api();
        assertThatThrownBy(api::port).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
        api.start();
        var http = new HttpFixture(api);
        assertThat(api.port()).isPositive();
        assertThat(http.get("/health/live").statusCode()).isEqualTo(200);

        long started = System.nanoTime();
        api.stop(Duration.ofSeconds(5));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThatThrownBy(() -> http.get("/health/live")).isInstanceOfAny(ConnectException.class,
                HttpTimeoutException.class, java.io.IOException.class);
        assertThatThrownBy(api::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("restart");
        api.stop(Duration.ofSeconds(1));
    }

    @Test
    void a_taken_port_says_which_key_to_change() {
        try (var first = api().start()) {
            var taken = new HttpApi(new HttpSettings("127.0.0.1", first.port(), null, 1024, Duration.ofSeconds(1)),
                    null, List.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
            assertThatThrownBy(taken::start).hasMessageContaining("msgx.http.port");
            taken.close();
        }
    }

    @Test
    void settings_never_show_the_token_and_read_their_keys() {
        var settings = HttpSettings.from(Map.of("msgx.http.port", "0", "msgx.http.token", " zz-secret-zz ",
                "msgx.http.max-body-bytes", "4096", "msgx.http.ready-timeout", "500ms")::get);

        assertThat(settings.port()).isZero();
        assertThat(settings.token()).isEqualTo("zz-secret-zz");
        assertThat(settings.maxBodyBytes()).isEqualTo(4096);
        assertThat(settings.readyTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(settings.toString()).doesNotContain("zz-secret-zz").contains("token=(set)");
        assertThat(HttpSettings.from(Map.<String, String>of()::get)).isEqualTo(HttpSettings.defaults());
        assertThat(HttpSettings.defaults().token()).isNull();
        assertThat(HttpSettings.defaults().credentialsFile()).isNull();
        assertThatThrownBy(() -> HttpSettings.from(Map.of("msgx.http.port", "eighty")::get))
                .hasMessageContaining("msgx.http.port");
    }
}
