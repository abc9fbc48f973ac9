package io.msgx.runner.cli;

import io.msgx.runner.jobs.FatalErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * The {@code run} command's {@link FatalErrorHandler} (D-74): a loop that met a JVM {@link Error} ends the process
 * with {@value Main#FATAL} (EX_SOFTWARE), so the service manager restarts it and, meanwhile, the standby takes over.
 *
 * <p>The exit runs on a thread of its own, not in the failing loop's: {@code System.exit} runs the shutdown hook, which
 * closes the exchange and waits for every loop's thread to end, the failing one included; called from that thread it
 * would wait for itself until the stop's 30 s bound. From a thread of its own the hook finishes the message in hand,
 * releases the lease at once (the standby need not wait for the lease's session to time out) and closes the pools. Only
 * if the hook hangs (a JVM short of memory, a driver stuck in a close) does {@code Runtime.halt} end the process after
 * {@link #HALT_AFTER}: halt skips the hooks, so it is the fallback, never the way.
 */
final class ExitOnFatalError implements FatalErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(ExitOnFatalError.class);

    /** How long the shutdown hook may take after a fatal error before the process is halted. */
    static final Duration HALT_AFTER = Duration.ofSeconds(60);

    private final IntConsumer exit;
    private final IntConsumer halt;
    private final Duration haltAfter;

    /** Exits the JVM: {@code System.exit}, then {@code Runtime.halt} after {@link #HALT_AFTER}. */
    ExitOnFatalError() {
        this(System::exit, code -> Runtime.getRuntime().halt(code), HALT_AFTER);
    }

    ExitOnFatalError(IntConsumer exit, IntConsumer halt, Duration haltAfter) {
        this.exit = Objects.requireNonNull(exit, "exit");
        this.halt = Objects.requireNonNull(halt, "halt");
        this.haltAfter = Objects.requireNonNull(haltAfter, "haltAfter");
    }

    @Override
    public void onFatalError(String loop, Error error) {
        log.error("FATAL: loop {} hit {}; exiting with {} so the service manager restarts this instance (the standby "
                + "takes over meanwhile)", loop, error.toString(), Main.FATAL, error);
        var watchdog = new Thread(() -> {
            try {
                Thread.sleep(haltAfter.toMillis());
                log.error("FATAL: the shutdown did not finish within {}: halting with {}", haltAfter, Main.FATAL);
                halt.accept(Main.FATAL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "msgx-fatal-halt");
        watchdog.setDaemon(true);
        watchdog.start();
        var exiting = new Thread(() -> exit.accept(Main.FATAL), "msgx-fatal-exit");
        exiting.start();
    }
}
