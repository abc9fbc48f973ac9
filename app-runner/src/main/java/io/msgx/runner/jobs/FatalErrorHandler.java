package io.msgx.runner.jobs;

/**
 * What happens when a background loop meets a JVM {@link Error} (D-74): the JVM is in trouble (a
 * {@link StackOverflowError}, a {@link LinkageError}, an {@link AssertionError} of a broken invariant), so carrying on
 * would hide it, and ending only that loop's schedule, as a plain executor does, leaves a process that looks alive but
 * does no work. The loop's schedule ends after the handler returns.
 *
 * <p>The library never ends the process itself: the {@code run} command installs a handler that exits with
 * {@code 70} so the service manager restarts it and a standby takes over; an embedder chooses its own, and by default
 * the exchange closes itself and reports the error ({@code MsgExchange.fatalError()}, {@code /health/live} DOWN).
 */
@FunctionalInterface
public interface FatalErrorHandler {

    /**
     * Called once per Error, in the failing loop's thread, after the Error was logged.
     *
     * @param loop  the loop's name: a job's ({@code pump}, {@code dispatcher}, ...) or {@code lease-watcher}
     * @param error what it threw
     */
    void onFatalError(String loop, Error error);
}
