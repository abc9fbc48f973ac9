package io.msgx.runner.reliability;

import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.testing.jdbc.TestServer;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The machine's own PostgreSQL and MariaDB servers, really stopped and started again (the long form of the outage
 * tests, docs/reliability.md). Every other test of the build shares these servers, so only a test that runs alone
 * may use this, and it must start them again in a {@code finally}; starting goes through
 * {@code scripts/start-services.sh}, the same way the build starts them.
 */
final class LocalServers {

    private LocalServers() {
    }

    /**
     * Skips the calling test unless both fixtures use these local servers (not an embedded one, not one named by a
     * {@code MSGX_TEST_*_URL}): stopping them would then take nothing away from the pipeline. Call it first.
     */
    static void assumeTheTestsUseThem() {
        Assumptions.assumeTrue(PgTestDatabase.SERVER.origin() == TestServer.Origin.LOCAL
                        && TestMailboxDatabase.server().origin() == TestServer.Origin.LOCAL,
                "the tests do not use the machine's own PostgreSQL and MariaDB");
    }

    /** Stop the local PostgreSQL cluster (fast shutdown: sessions are terminated, as at a real restart). */
    static void stopPostgres() {
        run(List.of("pg_ctlcluster", "--skip-systemctl-redirect", postgresVersion(), "main", "stop", "-m", "fast"));
    }

    /** Stop the local MariaDB server. */
    static void stopMariaDb() {
        run(List.of("mysqladmin", "-h", "127.0.0.1", "-uroot", "shutdown"));
    }

    /** Start whichever of the two is down and wait until both answer. */
    static void startBoth() {
        run(List.of(repository().resolve("scripts/start-services.sh").toString()));
    }

    private static String postgresVersion() {
        var versions = new File("/etc/postgresql").list();
        if (versions == null || versions.length == 0) {
            throw new IllegalStateException("no PostgreSQL cluster under /etc/postgresql");
        }
        return versions[0];
    }

    private static Path repository() {
        var dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("scripts/start-services.sh"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("scripts/start-services.sh not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    private static void run(List<String> command) {
        try {
            var process = new ProcessBuilder(command).inheritIO().start();
            if (!process.waitFor(Duration.ofMinutes(2).toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within 2 minutes");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue());
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("could not run " + String.join(" ", command) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }
}
