package io.msgx.adapter.oracle;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.OracleContainer;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Oracle XE 11g ({@value #IMAGE}) in a Testcontainers container, for a machine with a Docker engine.
 *
 * <p>Every Testcontainers type is confined to this class, so {@link OracleTestDatabase} loads without Testcontainers
 * on the class path: the Oracle self-test the distribution ships (D-88) runs the suites with no Docker client in it.
 */
final class OracleXeContainer {

    static final String IMAGE = "gvenzl/oracle-xe:11-slim";

    /** The JDBC URL and logon of a running Oracle. */
    record Logon(String url, String user, String password) {
    }

    private static OracleContainer shared;

    private OracleXeContainer() {
    }

    /** A new, not yet started container of {@value #IMAGE}; the caller starts and closes it. */
    static OracleContainer create() {
        return new OracleContainer(DockerImageName.parse(IMAGE).asCompatibleSubstituteFor("gvenzl/oracle-xe"))
                .usingSid()
                .withStartupTimeout(Duration.ofMinutes(5));
    }

    /** The container every test of this JVM shares, started on first use; the test is skipped without Docker. */
    static synchronized Logon shared() {
        assumeTrue(dockerAvailable(), "MSGX_TEST_ORACLE=container, but no Docker engine answers here: "
                + "the Oracle XE container cannot start");
        if (shared == null) {
            shared = create();
            shared.start();
        }
        return new Logon(shared.getJdbcUrl(), shared.getUsername(), shared.getPassword());
    }

    /** True when Testcontainers finds a Docker engine (false, quietly, when it does not). */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
