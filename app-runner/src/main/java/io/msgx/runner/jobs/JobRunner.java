package io.msgx.runner.jobs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The only place that starts threads for the background loops. Each loop is a named job — a
 * {@code runOnce()} and a period — registered before {@link #start()}.
 *
 * <ul>
 *   <li>Each job gets its own single-thread {@link ScheduledExecutorService} with one daemon thread named
 *       {@code msgx-<name>}, run with a fixed delay: the next run starts {@code period} after the previous
 *       one ended, so a job never overlaps itself and a slow job does not delay the others.</li>
 *   <li>Each run is isolated: an exception is logged with the job's name and the next run happens as
 *       scheduled. An {@link Error} is logged and handed to the {@link FatalErrorHandler}, then rethrown, which ends
 *       that job's schedule (the JVM is in trouble; carrying on would hide it). The handler decides what becomes of
 *       the process: the runner never ends it itself (D-74).</li>
 *   <li>Each job's pulse — when a run last started, ended, or reported progress ({@link #beat}) — is kept for
 *       {@code /health/live} ({@link #pulses()}, judged by {@link LivenessPolicy}).</li>
 *   <li>{@link #wake(String)} runs a job once more as soon as its thread is free, without waiting for its period:
 *       how one loop tells the next there is work (intake → pump → dispatcher); {@link #wakeAfter} does so after a
 *       delay (a loop retrying an outage sooner than its period). Wakes that arrive while one is pending collapse
 *       into it.</li>
 *   <li>{@link #runAllOnce()} runs every job once, in registration order, in the caller's thread (tests,
 *       CLI); a per-job lock keeps it from overlapping a scheduled run of the same job.</li>
 * </ul>
 *
 * <p>A runner made {@link #stepped} starts no thread: its jobs run when the caller calls {@link #runDue()}, each on its
 * schedule as the <em>clock</em> tells time, so that a settable clock can run days of the runner's schedules in
 * minutes (the lifetime soak, issue 33). Everything else is the same: the periods, the wakes, the isolation of each
 * run, the fatal-error handler.
 */
public final class JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    public static final String THREAD_PREFIX = "msgx-";

    private final List<Job> jobs = new ArrayList<>();
    private final List<ScheduledExecutorService> executors = new ArrayList<>();
    private final Clock clock;
    private final FatalErrorHandler onFatal;
    private final boolean stepped;
    private boolean started;
    private boolean stopped;

    /**
     * @param clock   the time of the jobs' pulses
     * @param onFatal what to do when a job throws an {@link Error}
     */
    public JobRunner(Clock clock, FatalErrorHandler onFatal) {
        this(clock, onFatal, false);
    }

    private JobRunner(Clock clock, FatalErrorHandler onFatal, boolean stepped) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.onFatal = Objects.requireNonNull(onFatal, "onFatal");
        this.stepped = stepped;
    }

    /**
     * A runner that starts no thread: {@link #runDue()}, called by the caller, runs the jobs that are due by
     * {@code clock}'s time (a wake makes a job due at once, {@link #wakeAfter} after its delay on that clock).
     */
    public static JobRunner stepped(Clock clock, FatalErrorHandler onFatal) {
        return new JobRunner(clock, onFatal, true);
    }

    /**
     * Threads named {@code msgx-<name>}, daemons (they never keep the JVM alive): the jobs' threads, and any other
     * thread of the pipeline that belongs to one task.
     */
    public static ThreadFactory daemonThread(String name) {
        Objects.requireNonNull(name, "name");
        return runnable -> {
            var thread = new Thread(runnable, THREAD_PREFIX + name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * One daemon thread named {@code name} that runs the tasks handed to it in turn and ends after {@code idle} without
     * work (a new one starts with the next task): e.g. the dispatcher's confirmations (D-40). A queue, not a hand-over:
     * the thread that finished the previous task may not be waiting yet when the next is handed over. The caller
     * shuts it down.
     */
    public static ExecutorService oneThreadEndingWhenIdle(String name, Duration idle) {
        var executor = new ThreadPoolExecutor(1, 1, idle.toMillis(), TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                daemonThread(name));
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** Add a job; names are unique, the period positive. Only before {@link #start()}. */
    public synchronized JobRunner register(String name, Runnable runOnce, Duration period) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(runOnce, "runOnce");
        Objects.requireNonNull(period, "period");
        if (name.isBlank()) {
            throw new IllegalArgumentException("A job needs a name (its thread is msgx-<name>)");
        }
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("Job " + name + ": period must be positive, was " + period);
        }
        if (started) {
            throw new IllegalStateException("Job " + name + " registered after start(): register every job first");
        }
        if (jobs.stream().anyMatch(job -> job.name.equals(name))) {
            throw new IllegalArgumentException("Job " + name + " is registered already: job names are unique");
        }
        jobs.add(new Job(name, runOnce, period, clock, onFatal));
        return this;
    }

    /**
     * The job named {@code name} made progress within a run: called by a job whose run may last long by design (a
     * backlog drained step by step), so that a long run that works is not taken for a hung one.
     */
    public void beat(String name) {
        Job job;
        synchronized (this) {
            job = jobs.get(indexOf(name));
        }
        job.lastSign = clock.instant();
    }

    /** Each job's last sign of life, in registration order; empty before {@link #start()}. */
    public synchronized List<JobPulse> pulses() {
        if (!started) {
            return List.of();
        }
        return jobs.stream().map(job -> new JobPulse(job.name, job.period, job.lastSign, job.runningSince)).toList();
    }

    /**
     * The real time each job's runs have taken since it was registered, in registration order: where the runner's work
     * goes (measured by the JVM's monotonic time, whatever the clock; the lifetime soak's digest time per message).
     */
    public synchronized Map<String, Duration> busyTimes() {
        var times = new java.util.LinkedHashMap<String, Duration>();
        jobs.forEach(job -> times.put(job.name, Duration.ofNanos(job.busyNanos.get())));
        return times;
    }

    /**
     * Run the job named {@code name} once more as soon as its thread is free (never overlapping itself); nothing
     * happens before {@link #start()}, after {@link #stop}, or when a wake of that job is already pending.
     */
    public void wake(String name) {
        wakeAfter(name, Duration.ZERO);
    }

    /**
     * Run the job named {@code name} once more {@code delay} from now (or later, when its thread is busy then), without
     * waiting for its period: how a loop that met an outage asks to try again sooner than its period. Collapses like
     * {@link #wake}: while a wake is pending, this does nothing.
     */
    public void wakeAfter(String name, Duration delay) {
        Job job;
        ScheduledExecutorService executor;
        synchronized (this) {
            int index = indexOf(name);
            if (stepped && started && !stopped) {
                jobs.get(index).dueBy(clock.instant().plus(delay.isNegative() ? Duration.ZERO : delay));
                return;
            }
            if (!started || stopped || index >= executors.size()) {
                return;
            }
            job = jobs.get(index);
            executor = executors.get(index);
        }
        if (job.wakePending.compareAndSet(false, true)) {
            try {
                executor.schedule(() -> {
                    job.wakePending.set(false);
                    job.runIsolated();
                }, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                job.wakePending.set(false); // stopping: nothing more runs
            }
        }
    }

    private int indexOf(String name) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).name.equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("No job named " + name + "; registered: " + jobNames());
    }

    /** The registered job names, in registration order. */
    public synchronized List<String> jobNames() {
        return jobs.stream().map(job -> job.name).toList();
    }

    /** Start every registered job: its first run at once, then with a fixed delay of its period. */
    public synchronized void start() {
        if (started || stopped) {
            throw new IllegalStateException(started ? "JobRunner started already" : "JobRunner stopped: it does not restart");
        }
        started = true;
        var now = clock.instant();
        for (var job : jobs) {
            job.lastSign = now;
            if (stepped) {
                job.dueBy(now);
                continue;
            }
            var executor = Executors.newSingleThreadScheduledExecutor(daemonThread(job.name));
            executors.add(executor);
            executor.scheduleWithFixedDelay(job::runIsolated, 0, job.period.toNanos(), TimeUnit.NANOSECONDS);
            LOG.info("Job {} started, every {}", job.name, job.period);
        }
        if (stepped) {
            LOG.info("Jobs {} stepped by the caller on the clock's time", jobNames());
        }
    }

    /**
     * A {@link #stepped} runner's step: run, in registration order and in the caller's thread, every job that is due by
     * the clock (its period has passed since its last run ended, or it was woken), and again while running them made
     * others due (intake wakes the pump, the pump the dispatcher), at most {@code 100} passes. An exception is logged
     * and the job is due again a period later; an {@link Error} goes to the fatal-error handler and is thrown. Returns
     * how many runs there were.
     */
    public int runDue() {
        List<Job> snapshot;
        synchronized (this) {
            if (!stepped || !started || stopped) {
                throw new IllegalStateException(!stepped ? "runDue() is for a stepped JobRunner; this one runs its own "
                        + "threads" : started ? "JobRunner stopped: nothing runs any more" : "start() the JobRunner first");
            }
            snapshot = List.copyOf(jobs);
        }
        int runs = 0;
        for (int pass = 0; pass < 100; pass++) {
            int before = runs;
            for (var job : snapshot) {
                if (job.takeIfDueAt(clock.instant())) {
                    try {
                        job.runIsolated();
                    } finally {
                        job.ranUntil(clock.instant());
                    }
                    runs++;
                }
            }
            if (runs == before) {
                break;
            }
        }
        return runs;
    }

    /**
     * Stop scheduling and wait up to {@code timeout} for running jobs to finish. True when every job thread
     * has ended (from then on nothing runs); false when the wait ran out (the job threads are then
     * interrupted) or the caller was interrupted (its interrupt flag is restored).
     */
    public boolean stop(Duration timeout) {
        List<ScheduledExecutorService> running;
        synchronized (this) {
            stopped = true;
            running = List.copyOf(executors);
        }
        running.forEach(ScheduledExecutorService::shutdown);
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        try {
            for (var executor : running) {
                long left = deadline - System.nanoTime();
                if (!executor.awaitTermination(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                    LOG.warn("Jobs still running after {}: interrupting them", timeout);
                    running.forEach(ScheduledExecutorService::shutdownNow);
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            running.forEach(ScheduledExecutorService::shutdownNow);
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Run every job once, in registration order, in the caller's thread. A failing job does not keep the
     * later ones from running; afterwards the first failure is thrown, the others attached as suppressed.
     */
    public void runAllOnce() {
        List<Job> snapshot;
        synchronized (this) {
            if (stopped) {
                throw new IllegalStateException("JobRunner stopped: nothing runs any more");
            }
            snapshot = List.copyOf(jobs);
        }
        RuntimeException failure = null;
        for (var job : snapshot) {
            try {
                job.runLocked();
            } catch (Exception e) {
                LOG.warn("Job {} failed: {}", job.name, e.toString(), e);
                if (failure == null) {
                    failure = new IllegalStateException("Job " + job.name + " failed: " + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static final class Job {
        final String name;
        final Runnable runOnce;
        final Duration period;
        final Clock clock;
        final FatalErrorHandler onFatal;
        final ReentrantLock lock = new ReentrantLock();
        final AtomicBoolean wakePending = new AtomicBoolean();
        /** The last start, end or progress of a run; set when the schedule starts. */
        volatile Instant lastSign;
        /** When the run in progress started; null between runs. */
        volatile Instant runningSince;
        /** The real time this job's runs have taken so far, in nanoseconds (not the clock's: it may be simulated). */
        final java.util.concurrent.atomic.AtomicLong busyNanos = new java.util.concurrent.atomic.AtomicLong();
        /** A stepped runner's: when this job is due next (its period after its last run, or sooner when woken). */
        private Instant nextDue;

        synchronized void dueBy(Instant at) {
            nextDue = nextDue == null || at.isBefore(nextDue) ? at : nextDue;
        }

        /** Whether the job is due at {@code now}; if so it is taken: a wake from now on asks for another run. */
        synchronized boolean takeIfDueAt(Instant now) {
            if (nextDue == null || nextDue.isAfter(now)) {
                return false;
            }
            nextDue = null;
            return true;
        }

        /** A run ended at {@code end}: due a period later, or sooner when it was woken while it ran. */
        synchronized void ranUntil(Instant end) {
            var scheduled = end.plus(period);
            nextDue = nextDue != null && nextDue.isBefore(scheduled) ? nextDue : scheduled;
        }

        Job(String name, Runnable runOnce, Duration period, Clock clock, FatalErrorHandler onFatal) {
            this.name = name;
            this.runOnce = runOnce;
            this.period = period;
            this.clock = clock;
            this.onFatal = onFatal;
        }

        void runLocked() {
            lock.lock();
            try {
                var started = clock.instant();
                lastSign = started;
                runningSince = started;
                long startedNanos = System.nanoTime();
                try {
                    runOnce.run();
                } finally {
                    busyNanos.addAndGet(System.nanoTime() - startedNanos);
                    runningSince = null;
                    lastSign = clock.instant();
                }
            } finally {
                lock.unlock();
            }
        }

        /**
         * One scheduled run: an exception is logged and the schedule goes on; an Error goes to the fatal-error handler,
         * then ends the schedule.
         */
        void runIsolated() {
            try {
                runLocked();
            } catch (Exception e) { // a Runnable may still throw a checked exception sneakily
                LOG.warn("Job {} failed; it runs again in {}: {}", name, period, e.toString(), e);
            } catch (Error e) {
                LOG.error("Job {} hit {}; its schedule ends here", name, e.toString(), e);
                try {
                    onFatal.onFatalError(name, e);
                } catch (RuntimeException | Error handlerFailure) {
                    e.addSuppressed(handlerFailure);
                    LOG.error("The fatal-error handler failed on job {}: {}", name, handlerFailure.toString(), handlerFailure);
                }
                throw e;
            }
        }
    }
}
