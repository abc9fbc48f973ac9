package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static io.msgx.runner.http.HttpFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

class HealthEndpointsTest {

    private static final Duration READY_TIMEOUT = Duration.ofMillis(300);

    private final SettableClock clock = SettableClock.atExampleDay();
    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpApi api;
    private HttpFixture http;

    @AfterEach
    void stop() {
        release.countDown();
        if (api != null) {
            api.stop(Duration.ofSeconds(1));
        }
    }

    private void start(List<ReadinessCheck> checks) {
        api = new HttpApi(HttpFixture.settings(HttpFixture.TOKEN, 1024, READY_TIMEOUT), null, checks,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
        http = new HttpFixture(api);
    }

    private List<ReadinessCheck> realChecks() {
        return List.of(ReadCheck.store(store), ReadCheck.mailbox(mailbox),
                new WatermarkCheck(store, clock, Duration.ofSeconds(60)));
    }

    @Test
    void live_is_up_while_the_process_runs() throws Exception {
        start(List.of());

        var response = http.get("/health/live");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("status").asText()).isEqualTo("UP");
        assertThat(http.send(java.net.http.HttpRequest.newBuilder(http.uri("/health/live"))
                .DELETE()).statusCode()).isEqualTo(405);
    }

    @Test
    void ready_is_200_when_every_check_is_up() throws Exception {
        start(realChecks());

        var response = http.getAs("/health/ready", HttpFixture.TOKEN);

        assertThat(response.statusCode()).isEqualTo(200);
        var body = json(response);
        assertThat(body.get("status").asText()).isEqualTo("UP");
        assertThat(body.get("checks")).hasSize(3);
        for (var check : body.get("checks")) {
            assertThat(check.get("status").asText()).as(check.get("name").asText()).isEqualTo("UP");
        }
        assertThat(body.get("checks").findValuesAsText("name")).containsExactly("store", "mailbox", "watermark");
    }

    @Test
    void each_check_s_answer_is_a_gauge_so_alerts_fire_without_an_orchestrator_probing() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (var probe = new ReadinessProbe(realChecks(), READY_TIMEOUT);
             var gauges = new CheckGauges(probe, List.of("store", "mailbox", "watermark"), registry)) {
            assertThat(registry.get(CheckGauges.NAME).tag("check", "mailbox").gauge().value()).as("before a probe").isNaN();

            gauges.refresh();
            assertThat(registry.get(CheckGauges.NAME).tag("check", "mailbox").gauge().value()).isEqualTo(1.0);

            mailbox.setUnavailable(true);
            gauges.refresh();
            assertThat(registry.get(CheckGauges.NAME).tag("check", "mailbox").gauge().value()).isEqualTo(0.0);
            assertThat(registry.get(CheckGauges.NAME).tag("check", "store").gauge().value()).isEqualTo(1.0);
            assertThat(registry.scrape()).contains("msgx_health_check_up{check=\"mailbox\"} 0.0");
        }
    }

    @Test
    void a_dependency_that_stays_down_is_logged_once_and_its_return_once() {
        var logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(ReadinessProbe.class);
        var lines = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        lines.start();
        var level = logger.getLevel();
        logger.setLevel(ch.qos.logback.classic.Level.INFO);
        logger.addAppender(lines);
        try (var probe = new ReadinessProbe(realChecks(), READY_TIMEOUT)) {
            mailbox.setUnavailable(true);
            probe.probe();
            probe.probe();
            probe.probe();
            mailbox.setUnavailable(false);
            probe.probe();
            probe.probe();
        } finally {
            logger.detachAppender(lines);
            logger.setLevel(level);
        }

        assertThat(lines.list).extracting(e -> e.getLevel() + " " + e.getFormattedMessage())
                .hasSize(2)
                .satisfies(list -> {
                    assertThat(list.get(0)).startsWith("WARN Readiness check mailbox is DOWN: ");
                    assertThat(list.get(1)).isEqualTo("INFO Readiness check mailbox is UP again");
                });
    }

    @Test
    void without_a_credential_ready_tells_each_checks_status_but_no_reason() throws Exception {
        start(realChecks());
        mailbox.setUnavailable(true);

        var response = http.get("/health/ready");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(checkNamed(json(response), "mailbox").get("status").asText()).isEqualTo("DOWN");
        assertThat(checkNamed(json(response), "mailbox").has("reason")).isFalse();
        assertThat(response.body()).doesNotContain("CMINMSGS").doesNotContain("head");
        assertThat(http.getAs("/health/ready", "not-the-secret").body()).doesNotContain("CMINMSGS");
    }

    @Test
    void an_unavailable_mailbox_makes_ready_503_naming_it() throws Exception {
        start(realChecks());
        mailbox.setUnavailable(true);

        var response = http.getAs("/health/ready", HttpFixture.TOKEN);

        assertThat(response.statusCode()).isEqualTo(503);
        var mailboxStatus = checkNamed(json(response), "mailbox");
        assertThat(mailboxStatus.get("status").asText()).isEqualTo("DOWN");
        assertThat(mailboxStatus.get("reason").asText()).contains("CMINMSGS").contains("unavailable");
        assertThat(checkNamed(json(response), "store").get("status").asText()).isEqualTo("UP");
    }

    @Test
    void a_check_that_throws_is_down_with_its_exception() throws Exception {
        start(List.of(ReadCheck.store(store), check("broker", () -> {
            throw new IllegalStateException("broker said no");
        })));

        var response = http.getAs("/health/ready", HttpFixture.TOKEN);

        assertThat(response.statusCode()).isEqualTo(503);
        var broker = checkNamed(json(response), "broker");
        assertThat(broker.get("status").asText()).isEqualTo("DOWN");
        assertThat(broker.get("reason").asText()).contains("broker said no");
    }

    @Test
    void a_check_that_hangs_is_down_within_the_bound_and_is_not_started_twice() throws Exception {
        var runs = new AtomicInteger();
        start(List.of(ReadCheck.store(store), check("hanging", () -> {
            runs.incrementAndGet();
            release.await();
            return ReadinessCheck.Result.up();
        })));

        long started = System.nanoTime();
        var first = http.getAs("/health/ready", HttpFixture.TOKEN);
        var second = http.getAs("/health/ready", HttpFixture.TOKEN);
        var took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(first.statusCode()).isEqualTo(503);
        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(took).isLessThan(READY_TIMEOUT.multipliedBy(2).plusSeconds(2));
        var hanging = checkNamed(json(first), "hanging");
        assertThat(hanging.get("status").asText()).isEqualTo("DOWN");
        assertThat(hanging.get("reason").asText()).contains("no answer within 300 ms");
        assertThat(checkNamed(json(first), "store").get("status").asText()).isEqualTo("UP");
        assertThat(runs).hasValue(1);
    }

    @Test
    void a_hanging_check_that_answers_later_makes_ready_up_again() throws Exception {
        start(List.of(check("slow", () -> {
            release.await();
            return ReadinessCheck.Result.up();
        })));
        assertThat(http.getAs("/health/ready", HttpFixture.TOKEN).statusCode()).isEqualTo(503);

        release.countDown();

        assertThat(http.getAs("/health/ready", HttpFixture.TOKEN).statusCode()).isEqualTo(200);
    }

    @Test
    void a_hole_older_than_the_budget_makes_ready_503() throws Exception {
        start(realChecks());
        store.inboxCursor().save(41, clock.instant());
        clock.tick(Duration.ofSeconds(61));

        var response = http.getAs("/health/ready", HttpFixture.TOKEN);

        assertThat(response.statusCode()).isEqualTo(503);
        var watermark = checkNamed(json(response), "watermark");
        assertThat(watermark.get("status").asText()).isEqualTo("DOWN");
        assertThat(watermark.get("reason").asText()).contains("mailbox ID 42");
    }

    private static com.fasterxml.jackson.databind.JsonNode checkNamed(com.fasterxml.jackson.databind.JsonNode body,
                                                                      String name) {
        for (var check : body.get("checks")) {
            if (check.get("name").asText().equals(name)) {
                return check;
            }
        }
        throw new AssertionError("no check named " + name + " in " + body);
    }

    /** A check from a lambda that may throw checked exceptions (a hang waits on a latch). */
    private static ReadinessCheck check(String name, CheckBody body) {
        return new ReadinessCheck() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Result check() {
                try {
                    return body.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Result.down("interrupted");
                }
            }
        };
    }

    @FunctionalInterface
    private interface CheckBody {
        ReadinessCheck.Result run() throws InterruptedException;
    }
}
