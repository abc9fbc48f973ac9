package io.msgx.runner;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An exchange started on the given keys with its HTTP side on a free port and a Prometheus registry, as an operator
 * reaches it: {@link #get} sends the bearer token. For the tests that look at a running exchange over HTTP.
 */
final class RunningExchange implements AutoCloseable {

    private static final String TOKEN = "running-exchange-token";

    private final MsgExchange exchange;
    private final HttpApi http;

    private RunningExchange(MsgExchange exchange, HttpApi http) {
        this.exchange = exchange;
        this.http = http;
    }

    /** Starts an exchange on {@code keys} (which it completes with the HTTP port, the token and a 200 ms poll). */
    static RunningExchange start(Map<String, String> keys) {
        keys.put(Keys.HTTP_PORT, "0");
        keys.put(Keys.HTTP_TOKEN, TOKEN);
        keys.put(Keys.POLL_INTERVAL, "200ms");
        var exchange = MsgExchange.builder().config(keys)
                .meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).build();
        var http = HttpApi.forExchange(exchange).start();
        exchange.start();
        return new RunningExchange(exchange, http);
    }

    MsgExchange exchange() {
        return exchange;
    }

    /** A GET with the token. */
    HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits up to {@code seconds} for {@code condition}, failing with {@code what}. */
    static void await(String what, int seconds, BooleanSupplier condition) throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(seconds));
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as(what + " within " + seconds + " s").isBefore(deadline);
            Thread.sleep(100);
        }
    }

    @Override
    public void close() {
        http.close();
        exchange.close();
    }
}
