package io.msgx.runner;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * The executable jar that {@code package} built, as the {@code *IT} tests run it in a process of its own: where it
 * is, a free port for its HTTP side, and a bounded wait for what it does.
 */
public final class BuiltRunner {

    private BuiltRunner() {
    }

    /** The jar's path; failsafe passes it as {@code msgx.runner.jar}. */
    public static String jar() {
        var jar = System.getProperty("msgx.runner.jar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("msgx.runner.jar (" + jar + ") does not name the built jar: run through "
                    + "'mvn verify', which packages it before the integration tests");
        }
        return jar;
    }

    /** A port no one listens on now, for a runner's {@code msgx.http.port}. */
    public static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Poll {@code condition} every 200 ms for up to 60 s; fails naming {@code what}. */
    public static void await(String what, BooleanSupplier condition) throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timed out waiting for: " + what);
    }
}
