package io.msgx.runner;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Same identity, other content (Q15, issue 24 point 6): a corrected resend under the same SEQN is still skipped, but
 * its reason, the console's message page and the {@code duplicates} counter tell it from a plain resend.
 */
class DuplicatesShownTest {

    private static final String TOKEN = "duplicates-token";

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();
    private MsgExchange exchange;
    private HttpApi http;

    @AfterEach
    void stop() {
        if (http != null) {
            http.close();
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    @Test
    void a_corrected_resend_is_skipped_as_content_differs_counted_and_shown_with_a_link_to_its_holder() throws Exception {
        var original = sis.schedule(fltr("1001", "11MAR240835", "STND", "501"));
        long first = services.deliver(original);
        long corrected = services.deliver(original.replace("<STND>501</STND>", "<STND>502</STND>"));
        long resent = services.deliver(original);
        var keys = services.runnerKeys();
        keys.put(Keys.HTTP_PORT, "0");
        keys.put(Keys.HTTP_TOKEN, TOKEN);
        keys.put(Keys.POLL_INTERVAL, "200ms");
        exchange = MsgExchange.builder().config(keys).meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
                .build();
        http = HttpApi.forExchange(exchange).start();
        exchange.start();
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (exchange.store().procStates().find(resent).map(r -> r.status() != ProcStatus.SKIPPED).orElse(true)) {
            assertThat(Instant.now()).as("the three messages end within 30 s").isBefore(deadline);
            Thread.sleep(100);
        }

        assertThat(exchange.store().procStates().find(corrected).orElseThrow().lastError())
                .isEqualTo("duplicate-of:" + first + ":content-differs");
        assertThat(exchange.store().procStates().find(resent).orElseThrow().lastError()).isEqualTo("duplicate-of:" + first);
        assertThat(get("/console/message?id=" + corrected)).contains("id=\"content-differs\"")
                .contains("<a href=\"/console/message?id=" + first + "\">message " + first + "</a>");
        assertThat(get("/console/message?id=" + resent)).doesNotContain("content-differs\"")
                .contains("A duplicate of <a href=\"/console/message?id=" + first + "\">");
        assertThat(get("/metrics")).contains("msgx_pipeline_duplicates_messages_total{content=\"differs\"} 1.0",
                "msgx_pipeline_duplicates_messages_total{content=\"same\"} 1.0");
    }

    private String get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
