package io.msgx.testing.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Supplier;

/**
 * The database server a test fixture uses (PostgreSQL for the store, MariaDB for the mailbox), chosen once per JVM:
 * <ol>
 *   <li>the server {@code <prefix>_URL} names, as {@code <prefix>_USER} / {@code <prefix>_PASSWORD};</li>
 *   <li>else the local server at its default address ({@code 127.0.0.1} and the default port), when something
 *       accepts a TCP connection there within {@link #PROBE_TIMEOUT_MS} ms: what CI uses;</li>
 *   <li>else an embedded server the fixture starts in this JVM (so the tests run on a machine with only Java and
 *       Maven), shared by every test of the JVM and stopped at its exit ({@link #stopAtExit}).</li>
 * </ol>
 * {@code <prefix>_PROBE_PORT} makes the probe knock on another port instead of the default one; naming a port
 * nothing listens on (e.g. {@code 1}) makes the default address look silent. It is there for testing the fallback
 * on a machine whose servers run (docs/testing.md). The choice is written as one line on standard error.
 */
public record TestServer(String url, String user, String password, Origin origin) {

    /** How long the probe waits for a TCP connection to the default address. */
    public static final int PROBE_TIMEOUT_MS = 500;

    /** Where the server came from. */
    public enum Origin {
        /** Named by the {@code _URL} variable. */
        NAMED,
        /** The local server at the default address. */
        LOCAL,
        /** Started in this JVM by the fixture. */
        EMBEDDED
    }

    /**
     * Choose as the class comment says.
     *
     * @param product     the server's name in the log line ({@code PostgreSQL}, {@code MariaDB})
     * @param prefix      of the variables, e.g. {@code MSGX_TEST_PG}
     * @param defaultUrl  the local server's URL, on {@code 127.0.0.1:defaultPort}
     * @param defaultPort the local server's port, probed
     * @param defaultUser the local administrator, unless {@code <prefix>_USER} says otherwise
     * @param embedded    starts the embedded server (with the administrator the tests expect) and returns it
     */
    public static TestServer choose(String product, String prefix, String defaultUrl, int defaultPort,
                                    String defaultUser, Supplier<TestServer> embedded) {
        var user = env(prefix + "_USER", defaultUser);
        var password = env(prefix + "_PASSWORD", "");
        var named = env(prefix + "_URL", null);
        if (named != null) {
            return announce(product, new TestServer(named, user, password, Origin.NAMED), prefix + "_URL is set");
        }
        var probePort = Integer.parseInt(env(prefix + "_PROBE_PORT", Integer.toString(defaultPort)));
        var probed = "127.0.0.1:" + probePort + (probePort == defaultPort ? "" : " (" + prefix + "_PROBE_PORT)");
        if (answers("127.0.0.1", probePort)) {
            return announce(product, new TestServer(defaultUrl, user, password, Origin.LOCAL), probed + " answers");
        }
        long start = System.nanoTime();
        TestServer started;
        try {
            started = embedded.get();
        } catch (RuntimeException e) {
            throw new IllegalStateException(product + ": nothing answers on " + probed + ", " + prefix + "_URL is not set,"
                    + " and the embedded server did not start (" + e + "). Start the local one (scripts/start-services.sh)"
                    + " or name one with " + prefix + "_URL / _USER / _PASSWORD", e);
        }
        return announce(product, started, "nothing answers on " + probed + " and " + prefix + "_URL is not set; started in "
                + (System.nanoTime() - start) / 100_000_000 / 10.0 + " s, stopped when this JVM exits");
    }

    /** True when {@code host:port} accepts a TCP connection within {@link #PROBE_TIMEOUT_MS}. */
    public static boolean answers(String host, int port) {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), PROBE_TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A fresh folder for an embedded server's files, under the system's temporary folder. */
    public static Path workDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("no temporary folder for an embedded test server", e);
        }
    }

    /** At this JVM's exit: {@code stop} the embedded server, then delete its folder. */
    public static void stopAtExit(String name, ThrowingRunnable stop, Path workDir) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop.run();
            } catch (Exception e) {
                System.err.println("[msgx-test] could not stop the embedded " + name + ": " + e);
            } finally {
                deleteQuietly(workDir);
            }
        }, "msgx-test-stop-" + name));
    }

    /** A stop action that may throw. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static TestServer announce(String product, TestServer server, String why) {
        System.err.println("[msgx-test] " + product + ": using the " + server.origin().name().toLowerCase(java.util.Locale.ROOT)
                + " server " + server.url().replaceFirst("\\?.*", "") + " as " + server.user() + " (" + why + ")");
        return server;
    }

    /** Delete {@code dir} and everything in it, as far as possible. */
    public static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary folder is harmless
        }
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
