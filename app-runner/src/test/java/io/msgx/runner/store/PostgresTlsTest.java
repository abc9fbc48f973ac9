package io.msgx.runner.store;

import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store over TLS to PostgreSQL with the settings of docs/tls.md: {@code sslmode=verify-full} and the site's CA as
 * {@code sslrootcert} in {@code msgx.store.url}, nothing else. The session is really encrypted ({@code pg_stat_ssl}),
 * and a server the CA did not sign, or a host name its certificate does not carry, is refused before anything is sent.
 * Against the local server as scripts/start-services.sh sets it up ({@link LocalTls}); skipped without that set-up.
 */
class PostgresTlsTest {

    private static final String ENCRYPTED = "SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()";

    @TempDir
    static Path scratch;

    private final String schema = "msgx_tls_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10)
            .toLowerCase(Locale.ROOT);

    private boolean ready;

    @BeforeEach
    void localTls() {
        LocalTls.assumeReady("PostgreSQL", LocalTls.PG_PORT);
        ready = true;
    }

    @AfterEach
    void dropSchema() throws Exception {
        if (!ready) {
            return;
        }
        try (var admin = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test?sslmode=disable", "postgres", "");
             var drop = admin.createStatement()) {
            drop.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /** The runner's configuration with {@code storeUrl} (the mailbox and Kafka are not touched here). */
    private RunnerConfig config(String storeUrl) {
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_URL, storeUrl);
        keys.put(Keys.STORE_USER, "postgres");
        keys.put(Keys.STORE_SCHEMA, schema);
        keys.put(Keys.MAILBOX_URL, "jdbc:mysql://localhost:3306/unused");
        keys.put(Keys.KAFKA_ENABLED, "false");
        return RunnerConfig.from(ConfigSource.of(Map.copyOf(keys)));
    }

    private static String verifyFull(String host, Path ca) {
        return "jdbc:postgresql://" + host + ":5432/test?sslmode=verify-full&sslrootcert=" + ca;
    }

    @Test
    void the_store_migrates_and_works_over_an_encrypted_session_with_verify_full() throws Exception {
        var config = config(verifyFull("localhost", LocalTls.CA_PEM));
        var backend = new PgStoreBackend(config.store(), config.lease(), Clock.systemUTC());
        try {
            assertThat(backend.migrate()).isPositive();
            backend.requireCurrent();
            try (var connection = backend.pool().getConnection(); var query = connection.createStatement();
                 var row = query.executeQuery(ENCRYPTED)) {
                assertThat(row.next()).isTrue();
                assertThat(row.getBoolean("ssl")).as("the store's own session is encrypted").isTrue();
                assertThat(row.getString("version")).startsWith("TLSv1.");
            }
        } finally {
            backend.close();
        }
    }

    @Test
    void a_session_without_tls_shows_as_such_so_the_check_above_can_fail() throws Exception {
        // Sessions without TLS still work on the shared server (other tests use them); pg_stat_ssl tells them apart.
        try (var connection = DriverManager.getConnection("jdbc:postgresql://localhost:5432/test?sslmode=disable",
                "postgres", ""); var query = connection.createStatement(); var row = query.executeQuery(ENCRYPTED)) {
            assertThat(row.next()).isTrue();
            assertThat(row.getBoolean("ssl")).isFalse();
        }
    }

    @Test
    void a_server_certificate_of_another_ca_is_refused_with_a_clear_error() {
        var otherCa = io.msgx.adapter.kafka.TestCertificates.make(scratch.resolve("other-ca"), "another CA").caPem();
        var config = config(verifyFull("localhost", otherCa));
        var backend = new PgStoreBackend(config.store(), config.lease(), Clock.systemUTC());
        try {
            assertThatThrownBy(backend::migrate).satisfies(e -> assertThat(chain(e))
                    .containsIgnoringCase("SSL error")
                    .contains("PKIX path building failed"));
        } finally {
            backend.close();
        }
    }

    @Test
    void a_host_name_the_certificate_does_not_carry_is_refused_with_a_clear_error() {
        // The certificate names localhost only; 127.0.0.1 reaches the same server under another name.
        var config = config(verifyFull("127.0.0.1", LocalTls.CA_PEM));
        var backend = new PgStoreBackend(config.store(), config.lease(), Clock.systemUTC());
        try {
            assertThatThrownBy(backend::migrate).satisfies(e -> assertThat(chain(e))
                    .contains("The hostname 127.0.0.1 could not be verified"));
        } finally {
            backend.close();
        }
        // verify-ca checks the CA only: the same address is then accepted (so the refusal above is the name's)
        try (var connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test?sslmode=verify-ca"
                + "&sslrootcert=" + LocalTls.CA_PEM, "postgres", "")) {
            assertThat(connection.isValid(5)).isTrue();
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Every message of {@code e}'s cause chain, one per line. */
    static String chain(Throwable e) {
        var text = new StringBuilder();
        for (var t = e; t != null; t = t.getCause()) {
            text.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
        }
        return text.toString();
    }
}
