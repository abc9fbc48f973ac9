package io.msgx.runner.security;

import ch.qos.logback.classic.Level;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token-protected side of the runner's HTTP API as an attacker meets it, on a real runner (real PostgreSQL
 * and MariaDB behind it): the compatibility entry, the reference reads and the operations console refuse every
 * request without the exact token in the exact place ({@code Authorization: Bearer}), answer a refusal without
 * reading the body, stop reading a body at the limit however it is sent, and never echo or log a presented token.
 * Health and metrics are open by design (docs/operations.md) and show no secret.
 *
 * <p>CompatEntryEndpointTest covers the entry's own answers (a declared length over the limit with the token, a
 * finite chunked body, content types); ConsoleBrowserTest the console's sessions, origin and CSRF checks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpRefusalsTest {

    private static final String TOKEN = "Tok3n-" + java.util.UUID.randomUUID();
    private static final int MAX_BODY = 1024;

    /** A protected endpoint: how to call it, and what the right token gets (anything but a refusal). */
    private record Protected(String method, String target, String contentType, String body) {
    }

    private static final List<Protected> PROTECTED = List.of(
            new Protected("POST", "/cminmsgs/send", "application/xml",
                    new SisMessages().schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405"))),
            new Protected("GET", "/reference/GATE", null, null),
            new Protected("GET", "/reference/GATE/G28", null, null),
            new Protected("GET", "/console/api/overview", null, null),
            new Protected("POST", "/console/replay", "application/x-www-form-urlencoded", "ids=1&confirm=yes"),
            new Protected("POST", "/console/reconcile", "application/x-www-form-urlencoded", "ids=1&note=x"));

    private final PgTestDatabase postgres = new PgTestDatabase();
    private TestMailboxDatabase mariadb;
    private MsgExchange exchange;
    private HttpApi api;
    private RawHttp http;

    @BeforeAll
    void startRunner() throws Exception {
        postgres.beforeEach(null);
        mariadb = TestMailboxDatabase.create();
        try (var connection = mariadb.connect()) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_URL, PgTestDatabase.URL);
        keys.put(Keys.STORE_USER, PgTestDatabase.USER);
        keys.put(Keys.STORE_SCHEMA, postgres.schema());
        if (!PgTestDatabase.PASSWORD.isEmpty()) {
            keys.put(Keys.STORE_PASSWORD, PgTestDatabase.PASSWORD);
        }
        keys.put(Keys.MAILBOX_URL, mariadb.url()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true");
        keys.put(Keys.MAILBOX_USER, "root");
        keys.put(Keys.KAFKA_ENABLED, "false");
        keys.put(Keys.HTTP_PORT, "0");
        keys.put(Keys.HTTP_TOKEN, TOKEN);
        // This suite sends many wrong secrets on purpose; HttpRolesTest covers the per-client limit.
        keys.put(Keys.HTTP_MAX_FAILED_ATTEMPTS, "100000");
        keys.put(Keys.HTTP_MAX_BODY, Integer.toString(MAX_BODY));
        exchange = MsgExchange.builder().config(keys).build();
        api = HttpApi.forExchange(exchange).start();
        http = new RawHttp(api.port());
    }

    @AfterAll
    void stopRunner() throws Exception {
        try {
            if (api != null) {
                api.close();
            }
            if (exchange != null) {
                exchange.close();
            }
        } finally {
            if (mariadb != null) {
                mariadb.close();
            }
            postgres.afterEach(null);
        }
    }

    @Test
    void every_protected_endpoint_refuses_a_missing_wrong_or_misplaced_token_and_never_echoes_it() throws Exception {
        var presented = new LinkedHashMap<String, Map<String, String>>();
        presented.put("no Authorization", Map.of());
        presented.put("a wrong token", Map.of("Authorization", "Bearer not-" + TOKEN));
        presented.put("the token without its last character",
                Map.of("Authorization", "Bearer " + TOKEN.substring(0, TOKEN.length() - 1)));
        presented.put("the token with one more character", Map.of("Authorization", "Bearer " + TOKEN + "0"));
        presented.put("the token in upper case", Map.of("Authorization", "Bearer " + TOKEN.toUpperCase()));
        presented.put("an empty bearer", Map.of("Authorization", "Bearer "));
        presented.put("the scheme alone", Map.of("Authorization", "Bearer"));
        presented.put("the token as Basic credentials", Map.of("Authorization", "Basic "
                + Base64.getEncoder().encodeToString(("msgx:" + TOKEN).getBytes(StandardCharsets.UTF_8))));
        presented.put("the token under another scheme", Map.of("Authorization", "Token " + TOKEN));
        presented.put("the token without a scheme", Map.of("Authorization", TOKEN));
        presented.put("the token in a cookie", Map.of("Cookie", "msgx_console=" + TOKEN + "; token=" + TOKEN));
        presented.put("the token in another header", Map.of("X-Msgx-Token", TOKEN, "X-Api-Key", TOKEN));

        try (var log = LogCapture.start(Level.INFO)) {
            var refusals = new ArrayList<String>();
            for (var endpoint : PROTECTED) {
                for (var attempt : presented.entrySet()) {
                    var answer = call(endpoint, endpoint.target(), attempt.getValue());
                    refusals.add(endpoint.method() + " " + endpoint.target() + " with " + attempt.getKey() + " -> "
                            + answer.status());
                    assertThat(answer.text()).as("the answer never shows a presented token").doesNotContain(TOKEN)
                            .doesNotContain(TOKEN.substring(0, TOKEN.length() - 1));
                }
                var inQuery = call(endpoint, endpoint.target() + (endpoint.target().contains("?") ? "&" : "?")
                        + "access_token=" + TOKEN + "&token=" + TOKEN, Map.of());
                refusals.add(endpoint.method() + " " + endpoint.target() + " with the token in the query -> "
                        + inQuery.status());

                var rightToken = call(endpoint, endpoint.target(), Map.of("Authorization", "Bearer " + TOKEN));
                assertThat(rightToken.status()).as(endpoint + " with the right token is let in")
                        .isNotIn(401, 403);
            }
            assertThat(refusals).as("every misplaced or wrong token is refused with 401")
                    .allSatisfy(line -> assertThat(line).endsWith("-> 401"));
            assertThat(refusals).hasSize(PROTECTED.size() * (presented.size() + 1));
            assertThat(log.text()).as("no presented token reaches the log, right or wrong")
                    .doesNotContain(TOKEN.substring(0, TOKEN.length() - 1)).doesNotContain(TOKEN.toUpperCase());
        }
    }

    @Test
    void a_request_without_the_token_is_refused_before_its_body_is_read() throws Exception {
        long tenMiB = 10L * 1024 * 1024;
        // Ten MiB declared and none sent: only an answer given without reading the body arrives at all.
        assertThat(http.statusWithoutBody("/cminmsgs/send", Map.of("Content-Type", "application/xml"), tenMiB))
                .isEqualTo(401);
        assertThat(http.statusWithoutBody("/console/replay",
                Map.of("Content-Type", "application/x-www-form-urlencoded"), tenMiB)).isEqualTo(401);
        assertThat(http.statusWithoutBody("/console/replay", Map.of("Authorization", "Bearer wrong",
                "Content-Type", "application/x-www-form-urlencoded"), tenMiB)).isEqualTo(401);
    }

    @Test
    void an_endless_chunked_body_is_cut_off_at_the_limit_without_being_read_to_its_end() throws Exception {
        var mailboxBefore = exchange.mailbox().maxId();
        var entry = http.endlessChunkedUpload("/cminmsgs/send",
                Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/xml"));
        var consoleAction = http.endlessChunkedUpload("/console/replay",
                Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/x-www-form-urlencoded"));
        var consoleLogin = http.endlessChunkedUpload("/console/login", Map.of("Origin", "http://127.0.0.1:" + api.port(),
                "Content-Type", "application/x-www-form-urlencoded"));

        assertThat(entry.status()).as("the entry's limit is msgx.http.max-body-bytes").isEqualTo(413);
        assertThat(consoleAction.status()).as("a console form is at most 64 KiB").isEqualTo(413);
        assertThat(consoleLogin.status()).as("the login form too (refused, no session)").isEqualTo(403);
        for (var cutoff : List.of(entry, consoleAction, consoleLogin)) {
            assertThat(cutoff.bytesSent()).as("the server stopped reading long before the upload's cap")
                    .isLessThan(RawHttp.ENDLESS_CAP);
        }
        assertThat(exchange.mailbox().maxId()).as("nothing reached the mailbox").isEqualTo(mailboxBefore);
    }

    @Test
    void health_and_metrics_are_open_and_show_no_secret() throws Exception {
        for (var target : List.of("/health/live", "/health/ready", "/metrics")) {
            var answer = http.send("GET", target, Map.of(), null);
            assertThat(answer.status()).as(target + " needs no token").isIn(200, 503);
            assertThat(answer.text()).as(target).doesNotContain(TOKEN);
        }
        assertThat(http.send("GET", "/health/live", Map.of(), null).status()).isEqualTo(200);
    }

    /**
     * The token is kept as a SHA-256 digest only and compared with {@link MessageDigest#isEqual}: a comparison
     * takes the same time whatever the presented token shares with the right one, so it cannot be guessed
     * character by character from response times (which no test could measure reliably on a shared machine).
     */
    @Test
    void secrets_are_held_as_digests_and_compared_in_constant_time() {
        var classes = new ClassFileImporter().importUrls(List.of(HttpApi.class.getResource("Credentials.class"),
                HttpApi.class.getResource("Credential.class")));
        JavaClass judge = classes.get("io.msgx.runner.http.Credentials");
        assertThat(judge.getMethods()).filteredOn(m -> m.getName().equals("bySecret")).singleElement()
                .satisfies(m -> assertThat(m.getMethodCallsFromSelf()).anySatisfy(call -> {
                    assertThat(call.getTargetOwner().getName()).isEqualTo(MessageDigest.class.getName());
                    assertThat(call.getName()).isEqualTo("isEqual");
                }));
        assertThat(classes.get("io.msgx.runner.http.Credential").getFields())
                .as("a credential keeps its name and the digest of its secret, no secret text")
                .filteredOn(f -> !f.getModifiers().contains(JavaModifier.STATIC))
                .filteredOn(f -> f.getRawType().isEquivalentTo(String.class))
                .extracting(f -> f.getName()).containsExactly("name");
    }

    private RawHttp.Answer call(Protected endpoint, String target, Map<String, String> credentials) throws Exception {
        var headers = new LinkedHashMap<>(credentials);
        if (endpoint.contentType() != null) {
            headers.put("Content-Type", endpoint.contentType());
        }
        if ("POST".equals(endpoint.method())) {
            headers.put("Origin", "http://127.0.0.1:" + api.port());
        }
        return http.send(endpoint.method(), target, headers, endpoint.body());
    }
}
