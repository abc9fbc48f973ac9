package io.msgx.runner.http;

import ch.qos.logback.classic.Level;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.runner.config.Keys;
import io.msgx.runner.security.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.msgx.runner.http.HttpFixture.VALID_XML;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Credentials per role and per client on a real server (issue 36 point 2): each part of the HTTP side answers the
 * credential that holds its role and refuses the others, the file is read again without a restart, and a client
 * guessing secrets is held back without flooding the log.
 */
class HttpRolesTest {

    private static final Map<String, String> SECRETS = Map.of(
            "gate-display", "reader-secret-0123456789abcdef",
            "aodb-bridge", "injector-secret-0123456789abcdef",
            "ops-alice", "operator-secret-0123456789abcdef",
            "prometheus", "metrics-secret-0123456789abcdef");

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.atExampleDay();
    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private Path file;
    private HttpApi api;
    private HttpFixture http;

    @BeforeEach
    void writeCredentials() throws Exception {
        file = dir.resolve("credentials");
        Files.write(file, List.of("# name roles hash",
                line("gate-display", "reader"), line("aodb-bridge", "injector"), line("ops-alice", "operator"),
                line("prometheus", "metrics")));
    }

    private static String line(String name, String roles) {
        return name + " " + roles + " " + Credential.hashOf(SECRETS.get(name));
    }

    private void start(int maxFailures) {
        var settings = new HttpSettings("127.0.0.1", 0, null, 4096, Duration.ofSeconds(1), file,
                HttpSettings.DEFAULT_IDLE_TIMEOUT, 64, null, false, maxFailures);
        api = new HttpApi(settings, new CompatEntry(mailbox, store.queue(), new JacksonXmlCodec(), clock), List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
        http = new HttpFixture(api);
    }

    @AfterEach
    void stop() {
        if (api != null) {
            api.stop(Duration.ofSeconds(1));
        }
    }

    private int status(String method, String path, String name) throws Exception {
        var request = HttpRequest.newBuilder(http.uri(path));
        if (name != null) {
            request.header("Authorization", "Bearer " + SECRETS.getOrDefault(name, name));
        }
        if (method.equals("POST")) {
            request.header("Content-Type", "application/xml").POST(HttpRequest.BodyPublishers.ofString(VALID_XML));
        }
        return http.send(request).statusCode();
    }

    @Test
    void each_part_answers_its_role_only() throws Exception {
        start(1000);
        // GET /reference without reference data wired answers 404 once the caller is let in.
        record Part(String method, String path, String role, int granted) {
        }
        var parts = List.of(new Part("GET", "/reference/GATE", "gate-display", 404),
                new Part("POST", "/cminmsgs/send", "aodb-bridge", 202),
                new Part("GET", "/metrics", "prometheus", 200));
        for (var part : parts) {
            for (var name : SECRETS.keySet()) {
                int expected = name.equals(part.role()) ? part.granted() : 403;
                assertThat(status(part.method(), part.path(), name)).as(part + " as " + name).isEqualTo(expected);
            }
            assertThat(status(part.method(), part.path(), null)).as(part + " without a credential").isEqualTo(401);
            assertThat(status(part.method(), part.path(), "not-a-secret-of-anyone")).as(part + " wrong").isEqualTo(401);
        }
        assertThat(status("GET", "/health/live", null)).isEqualTo(200);
        assertThat(status("GET", "/health/ready", null)).isEqualTo(200);
    }

    @Test
    void a_message_sent_through_the_entry_is_logged_with_the_credentials_name() throws Exception {
        start(1000);
        try (var log = LogCapture.start(Level.INFO)) {
            assertThat(status("POST", "/cminmsgs/send", "aodb-bridge")).isEqualTo(202);
            assertThat(log.text()).contains("as 'aodb-bridge'").doesNotContain(SECRETS.get("aodb-bridge"));
        }
    }

    @Test
    void credentials_are_added_and_revoked_without_a_restart() throws Exception {
        start(1000);
        assertThat(status("GET", "/reference/GATE", "gate-display")).isEqualTo(404);
        var rotated = "reader-rotated-secret-0123456789";
        Files.write(file, List.of("gate-display reader " + Credential.hashOf(rotated), line("aodb-bridge", "injector")));

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (status("GET", "/reference/GATE", rotated) != 404 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(status("GET", "/reference/GATE", rotated)).as("the new secret").isEqualTo(404);
        assertThat(status("GET", "/reference/GATE", "gate-display")).as("the old secret").isEqualTo(401);
        assertThat(status("GET", "/metrics", "prometheus")).as("a revoked credential's role is off").isEqualTo(403);
    }

    @Test
    void a_changed_file_that_cannot_be_read_keeps_the_credentials_as_they_were() throws Exception {
        start(1000);
        try (var log = LogCapture.start(Level.ERROR)) {
            Files.writeString(file, "gate-display reader md5:abc\n", StandardCharsets.UTF_8);
            Thread.sleep(CredentialSource.RECHECK.toMillis() + 500);

            assertThat(status("GET", "/reference/GATE", "gate-display")).isEqualTo(404);
            assertThat(log.text()).contains("cannot be read").contains("line 1").contains("sha256:");
        }
    }

    @Test
    void a_client_guessing_secrets_is_held_back_and_logged_twice_not_each_time() throws Exception {
        start(5);
        try (var log = LogCapture.start(Level.WARN)) {
            for (int i = 0; i < 5; i++) {
                assertThat(status("GET", "/reference/GATE", "guess-" + i)).isEqualTo(401);
            }
            for (int i = 0; i < 20; i++) {
                assertThat(status("GET", "/reference/GATE", "guess-more-" + i)).isEqualTo(429);
            }
            assertThat(status("GET", "/reference/GATE", "gate-display")).as("even the right secret, for the window")
                    .isEqualTo(429);
            assertThat(log.lines()).filteredOn(l -> l.contains("refused")).hasSize(2);
            assertThat(log.text()).contains("answered 429");
        }
    }

    @Test
    void the_file_must_be_readable_at_start_and_names_the_line() throws Exception {
        Files.writeString(file, "ok-name reader " + Credential.hashOf("x".repeat(20)) + "\nbad-name painter sha256:00\n");
        var settings = HttpSettings.defaults().withCredentialsFile(file);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new HttpApi(settings, null, List.of(),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
                .hasMessageContaining(Keys.HTTP_CREDENTIALS_FILE).hasMessageContaining("line 2")
                .hasMessageContaining("painter");
    }
}
