package io.msgx.runner.store;

import io.msgx.testing.jdbc.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The local TLS set-up that scripts/start-services.sh makes (docs/tls.md, "The local set-up"): a CA and a server
 * certificate for {@code localhost} in {@code $MSGX_TEST_TLS_DIR} (default {@code /var/tmp/msgx-tls}), PostgreSQL on
 * {@code localhost:5432} with TLS on, a MariaDB with TLS on {@code localhost:3307}.
 *
 * <p>Where it is absent (a developer who did not run the script, a machine without openssl or without the servers)
 * the TLS tests are skipped, saying why; under CI ({@code CI=true}, as {@code .ci/run} runs) they fail instead, since
 * {@code .ci/run} runs the script first and a silent skip there would hide a broken set-up.
 */
final class LocalTls {

    static final Path DIR = Path.of(System.getenv().getOrDefault("MSGX_TEST_TLS_DIR", "/var/tmp/msgx-tls"));
    /** The local CA's certificate, PEM. */
    static final Path CA_PEM = DIR.resolve("ca.crt");
    /** The same CA as a PKCS#12 trust store, password {@link #TRUST_STORE_PASSWORD}. */
    static final Path CA_P12 = DIR.resolve("ca.p12");
    static final String TRUST_STORE_PASSWORD = "changeit";
    static final int PG_PORT = 5432;
    static final int MARIADB_PORT = 3307;

    private LocalTls() {
    }

    /** Skip (or, under CI, fail) unless the certificates are there and {@code port} answers on this machine. */
    static void assumeReady(String server, int port) {
        var missing = !Files.isReadable(CA_PEM) || !Files.isReadable(CA_P12);
        var why = missing
                ? "no local TLS set-up in " + DIR + " (ca.crt, ca.p12): run scripts/start-services.sh (needs openssl)"
                : !TestServer.answers("127.0.0.1", port)
                        ? server + " with TLS does not answer on 127.0.0.1:" + port + ": run scripts/start-services.sh"
                        : null;
        if (why != null && "true".equals(System.getenv("CI"))) {
            fail(why + " — under CI .ci/run runs that script first, so the set-up is broken");
        }
        assumeTrue(why == null, () -> why);
    }
}
