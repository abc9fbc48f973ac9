package io.msgx.runner.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the {@link ReadinessCheck}s in parallel, each bounded by one timeout: a check that throws is DOWN with
 * its exception, a check that has not answered when the timeout ends is DOWN ("no answer within ..."). A probe
 * therefore takes at most about the timeout, whatever the dependencies do.
 *
 * <p>A check still running from an earlier probe (a hanging dependency) is not started again: the next probe
 * waits on that same run. So a hanging dependency holds at most one thread per check, however often the
 * orchestrator probes. The threads are daemons named {@code msgx-ready-<n>}.
 */
public final class ReadinessProbe implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReadinessProbe.class);

    private final List<ReadinessCheck> checks;
    private final Duration timeout;
    private final ThreadPoolExecutor executor;
    private final Map<String, Future<ReadinessCheck.Result>> running = new ConcurrentHashMap<>();
    /** Each check's answer at the last probe (UP or not), for {@link #reportChange}. */
    private final Map<String, Boolean> lastUp = new ConcurrentHashMap<>();

    public ReadinessProbe(List<ReadinessCheck> checks, Duration timeout) {
        this.checks = List.copyOf(Objects.requireNonNull(checks, "checks"));
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the readiness timeout must be positive, got " + timeout);
        }
        var names = new HashSet<String>();
        for (var check : this.checks) {
            if (check.name() == null || check.name().isBlank() || !names.add(check.name())) {
                throw new IllegalArgumentException("every readiness check needs its own non-blank name; '"
                        + check.name() + "' is blank or given twice");
            }
        }
        var counter = new AtomicInteger();
        // One thread per check at most (single-flight per check); idle threads end after a minute.
        int threads = Math.max(1, this.checks.size());
        executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                runnable -> {
                    var thread = new Thread(runnable, "msgx-ready-" + counter.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
    }

    /** Run every check once (or join its run still going) and wait at most the timeout for all of them. */
    public ReadinessReport probe() {
        long deadline = System.nanoTime() + timeout.toNanos();
        var started = new ArrayList<Future<ReadinessCheck.Result>>(checks.size());
        for (var check : checks) {
            started.add(running.compute(check.name(),
                    (name, previous) -> previous == null || previous.isDone() ? executor.submit(check::check) : previous));
        }
        var statuses = new ArrayList<ReadinessReport.CheckStatus>(checks.size());
        for (int i = 0; i < checks.size(); i++) {
            var check = checks.get(i);
            var result = await(check, started.get(i), deadline);
            reportChange(check.name(), result);
            statuses.add(new ReadinessReport.CheckStatus(check.name(), result));
        }
        return new ReadinessReport(statuses);
    }

    /**
     * Logs a check's change, not its every answer: probes come every 15 s from the check gauges and as often as an
     * orchestrator asks, so a dependency that stays down is one WARN (its reason stays in the answer's body), and its
     * return one INFO.
     */
    private void reportChange(String name, ReadinessCheck.Result result) {
        Boolean wasUp = lastUp.put(name, result.isUp());
        if (result instanceof ReadinessCheck.Result.Down down && !Boolean.FALSE.equals(wasUp)) {
            LOG.warn("Readiness check {} is DOWN: {}", name, down.reason());
        } else if (result.isUp() && Boolean.FALSE.equals(wasUp)) {
            LOG.info("Readiness check {} is UP again", name);
        }
    }

    private ReadinessCheck.Result await(ReadinessCheck check, Future<ReadinessCheck.Result> future, long deadline) {
        try {
            var result = future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return result == null
                    ? ReadinessCheck.Result.down("check " + check.name() + " answered nothing (a defect in the check)")
                    : result;
        } catch (TimeoutException e) {
            return ReadinessCheck.Result.down("no answer within " + timeout.toMillis() + " ms; the dependency hangs or"
                    + " is slow (the next probe waits on the same attempt)");
        } catch (ExecutionException e) {
            var cause = e.getCause() == null ? e : e.getCause();
            return ReadinessCheck.Result.down("check failed: " + cause);
        } catch (CancellationException e) {
            return ReadinessCheck.Result.down("check cancelled: the service is shutting down");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ReadinessCheck.Result.down("probe interrupted: the service is shutting down");
        }
    }

    /** Stop the check threads; a check that hangs is interrupted. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
