package io.msgx.runner.store;

import io.msgx.adapter.kafka.TestCertificates;
import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The mailbox over TLS to MariaDB with Connector/J and the settings of docs/tls.md in {@code msgx.mailbox.url}:
 * {@code sslMode=VERIFY_IDENTITY} (the CA and the host name checked) and the site's CA as a PKCS#12 trust store
 * ({@code trustCertificateKeyStoreUrl}), the system's CAs not consulted. The runner's own pool, the mailbox's own
 * statements, and {@code Ssl_cipher} of the session; a server the CA did not sign, or a host name its certificate does
 * not carry, refused. Against the TLS MariaDB scripts/start-services.sh starts on localhost:3307 ({@link LocalTls}).
 */
class MariaDbTlsTest {

    @TempDir
    static Path scratch;

    private final String database = "msgx_tls_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10)
            .toLowerCase(Locale.ROOT);

    private boolean created;

    @BeforeEach
    void createDatabase() throws SQLException {
        LocalTls.assumeReady("MariaDB", LocalTls.MARIADB_PORT);
        onServer("CREATE DATABASE `" + database + "` CHARACTER SET utf8mb4");
        created = true;
    }

    @AfterEach
    void dropDatabase() throws SQLException {
        if (created) {
            onServer("DROP DATABASE IF EXISTS `" + database + "`");
        }
    }

    private static void onServer(String ddl) throws SQLException {
        try (var admin = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + LocalTls.MARIADB_PORT
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", ""); var statement = admin.createStatement()) {
            statement.execute(ddl);
        }
    }

    /** The mailbox URL of docs/tls.md for {@code host}, trusting the CA in {@code trustStore} only. */
    private String mailboxUrl(String host, Path trustStore, String password) {
        return "jdbc:mysql://" + host + ":" + LocalTls.MARIADB_PORT + "/" + database + "?sslMode=VERIFY_IDENTITY"
                + "&trustCertificateKeyStoreUrl=file:" + trustStore + "&trustCertificateKeyStoreType=PKCS12"
                + "&trustCertificateKeyStorePassword=" + password + "&fallbackToSystemTrustStore=false"
                + "&connectTimeout=5000";
    }

    private static RunnerConfig config(String mailboxUrl) {
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_URL, "jdbc:postgresql://localhost:5432/unused");
        keys.put(Keys.MAILBOX_URL, mailboxUrl);
        keys.put(Keys.MAILBOX_USER, "root");
        keys.put(Keys.KAFKA_ENABLED, "false");
        return RunnerConfig.from(ConfigSource.of(Map.copyOf(keys)));
    }

    /** The mailbox's pool exactly as the runner opens it ({@link io.msgx.runner.embed.MsgExchange}). */
    private static ReconnectingPool pool(RunnerConfig config) {
        return ConnectionPools.open("msgx-mailbox", config.mailbox().url(), config.mailbox().user(),
                config.mailbox().password(), 3, hikari -> { });
    }

    private static String cipher(Connection connection) throws SQLException {
        try (var query = connection.createStatement(); var row = query.executeQuery("SHOW STATUS LIKE 'Ssl_cipher'")) {
            return row.next() ? row.getString(2) : "";
        }
    }

    @Test
    void the_mailbox_reads_and_writes_over_an_encrypted_session_with_the_server_verified() throws Exception {
        var config = config(mailboxUrl("localhost", LocalTls.CA_P12, LocalTls.TRUST_STORE_PASSWORD));
        try (var pool = pool(config)) {
            try (var connection = pool.getConnection()) {
                assertThat(cipher(connection)).as("Ssl_cipher of the mailbox's session").isNotBlank();
                new MailboxDdl(config.mailbox().schema()).createTables(connection);
            }
            var mailbox = new JdbcMailbox(pool, config.mailbox().schema(), config.mailbox().zone(), 5);
            long id = mailbox.appendInbound("<MSG/>", Instant.parse("2026-12-01T08:00:00Z"));
            assertThat(mailbox.readAfter(0, 10)).singleElement().satisfies(row -> assertThat(row.id()).isEqualTo(id));
        }
    }

    @Test
    void a_session_without_tls_shows_no_cipher_so_the_check_above_can_fail() throws Exception {
        try (var connection = DriverManager.getConnection("jdbc:mysql://localhost:" + LocalTls.MARIADB_PORT + "/"
                + database + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "")) {
            assertThat(cipher(connection)).isEmpty();
        }
    }

    @Test
    void a_server_certificate_of_another_ca_is_refused_with_a_clear_error() {
        var otherCa = TestCertificates.make(scratch.resolve("other-ca"), "another CA");
        var config = config(mailboxUrl("localhost", otherCa.trustStore(), otherCa.password()));
        try (var pool = pool(config)) {
            assertThatThrownBy(() -> pool.getConnection().close()).satisfies(e -> assertThat(PostgresTlsTest.chain(e))
                    .contains("SSLHandshakeException").contains("does not chain with any of the trust anchors"));
        }
    }

    @Test
    void a_host_name_the_certificate_does_not_carry_is_refused_with_a_clear_error() {
        var config = config(mailboxUrl("127.0.0.1", LocalTls.CA_P12, LocalTls.TRUST_STORE_PASSWORD));
        try (var pool = pool(config)) {
            assertThatThrownBy(() -> pool.getConnection().close()).satisfies(e -> assertThat(PostgresTlsTest.chain(e))
                    .contains("Server identity verification failed")
                    .contains("Subject Alternative Name entries matched the server hostname/IP '127.0.0.1'"));
        }
    }
}
