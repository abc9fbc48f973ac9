package io.msgx.runner.jobs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobRunnerTest {

    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final long WAIT_SECONDS = 5;

    private final java.util.List<String> fatal = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final JobRunner runner = new JobRunner(java.time.Clock.systemUTC(), (loop, error) -> fatal.add(loop + ": " + error.getMessage()));

    @AfterEach
    void stopRunner() {
        runner.stop(Duration.ofSeconds(5));
    }

    @Test
    void a_woken_job_runs_again_without_waiting_for_its_period() throws InterruptedException {
        var runs = new CountDownLatch(2);
        runner.register("slow-period", runs::countDown, java.time.Duration.ofHours(1));
        runner.start();

        runner.wake("slow-period");

        assertThat(runs.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the first run, then the woken one").isTrue();
    }

    @Test
    void a_job_woken_after_a_delay_runs_once_more_then_and_not_before() throws InterruptedException {
        var runs = new CopyOnWriteArrayList<Long>();
        var second = new CountDownLatch(2);
        runner.register("retrying", () -> {
            runs.add(System.nanoTime());
            second.countDown();
        }, Duration.ofHours(1));
        runner.start();
        long asked = System.nanoTime();

        runner.wakeAfter("retrying", Duration.ofMillis(300));
        runner.wakeAfter("retrying", Duration.ofMillis(10));

        assertThat(second.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the first run, then the delayed one").isTrue();
        assertThat(Duration.ofNanos(runs.get(1) - asked)).as("not before the delay")
                .isGreaterThanOrEqualTo(Duration.ofMillis(300));
        Thread.sleep(400);
        assertThat(runs).as("the second wake came while the first was pending: it collapsed into it").hasSize(2);
    }

    @Test
    void waking_an_unknown_job_names_the_registered_ones() {
        runner.register("pump", () -> { }, java.time.Duration.ofSeconds(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.wake("pmup"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pmup").hasMessageContaining("pump");
    }

    @Test
    void a_failing_job_keeps_being_scheduled() throws InterruptedException {
        var runs = startAJobThatFailsEveryRun("store unavailable");

        assertThat(runs.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("three runs despite failing every time").isTrue();
    }

    /** Registers a job "flaky" that throws {@code failure} at every run, and starts the runner; its first three runs. */
    private CountDownLatch startAJobThatFailsEveryRun(String failure) {
        var runs = new CountDownLatch(3);
        runner.register("flaky", () -> {
            runs.countDown();
            throw new IllegalStateException(failure);
        }, PERIOD);
        runner.start();
        return runs;
    }

    @Test
    void each_job_runs_on_its_own_daemon_thread_named_after_it() throws InterruptedException {
        var threads = new ConcurrentHashMap<String, Thread>();
        var ran = new CountDownLatch(2);
        runner.register("poller", () -> {
            threads.putIfAbsent("poller", Thread.currentThread());
            ran.countDown();
        }, PERIOD);
        runner.register("gauges", () -> {
            threads.putIfAbsent("gauges", Thread.currentThread());
            ran.countDown();
        }, PERIOD);

        runner.start();

        assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(threads.get("poller").getName()).isEqualTo("msgx-poller");
        assertThat(threads.get("gauges").getName()).isEqualTo("msgx-gauges");
        assertThat(threads.values()).allMatch(Thread::isDaemon);
    }

    @Test
    void a_job_never_overlaps_itself() throws InterruptedException {
        var running = new AtomicBoolean();
        var overlapped = new AtomicBoolean();
        var runs = new CountDownLatch(4);
        runner.register("slow", () -> {
            if (!running.compareAndSet(false, true)) {
                overlapped.set(true);
            }
            try {
                Thread.sleep(30); // longer than the period
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.set(false);
                runs.countDown();
            }
        }, Duration.ofMillis(1));

        runner.start();

        assertThat(runs.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(overlapped).isFalse();
    }

    @Test
    void stop_waits_for_a_running_job_and_afterwards_nothing_runs() throws InterruptedException {
        var started = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var finished = new AtomicBoolean();
        var runs = new AtomicInteger();
        runner.register("busy", () -> {
            runs.incrementAndGet();
            started.countDown();
            try {
                release.await(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            finished.set(true);
        }, PERIOD);
        runner.start();
        assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

        var releaser = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        boolean stopped = runner.stop(Duration.ofSeconds(WAIT_SECONDS));

        assertThat(stopped).isTrue();
        assertThat(finished).as("stop() returned only after the running job ended").isTrue();
        int runsAtStop = runs.get();
        Thread.sleep(PERIOD.toMillis() * 5);
        assertThat(runs.get()).as("no run after stop()").isEqualTo(runsAtStop);
        releaser.join();
    }

    @Test
    void stop_gives_up_after_the_timeout_and_interrupts_the_job() throws InterruptedException {
        var started = new CountDownLatch(1);
        var interrupted = new CountDownLatch(1);
        runner.register("stuck", () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        }, PERIOD);
        runner.start();
        assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

        assertThat(runner.stop(Duration.ofMillis(50))).isFalse();
        assertThat(interrupted.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void stop_restores_the_interrupt_flag_of_an_interrupted_caller() throws InterruptedException {
        var started = new CountDownLatch(1);
        runner.register("stuck", () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, PERIOD);
        runner.start();
        assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

        Thread.currentThread().interrupt();
        boolean stopped = runner.stop(Duration.ofSeconds(WAIT_SECONDS));

        assertThat(stopped).isFalse();
        assertThat(Thread.interrupted()).as("flag restored (and cleared here for the next test)").isTrue();
    }

    @Test
    void an_error_goes_to_the_fatal_error_handler_once_and_ends_that_jobs_schedule_only() throws InterruptedException {
        var errorRuns = new AtomicInteger();
        var otherRuns = new CountDownLatch(5);
        runner.register("broken", () -> {
            errorRuns.incrementAndGet();
            throw new AssertionError("simulated fatal error");
        }, PERIOD);
        runner.register("healthy", otherRuns::countDown, PERIOD);

        runner.start();

        assertThat(otherRuns.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(errorRuns.get()).isEqualTo(1);
        assertThat(fatal).as("the handler decides what becomes of the process").containsExactly(
                "broken: simulated fatal error");
    }

    @Test
    void an_exception_is_no_fatal_error() throws InterruptedException {
        var runs = startAJobThatFailsEveryRun("an outage, say");
        assertThat(runs.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("it runs again").isTrue();
        assertThat(fatal).isEmpty();
    }

    @Test
    void each_jobs_pulse_tells_its_last_sign_of_life_and_whether_a_run_is_in_progress() throws InterruptedException {
        var clock = io.msgx.pipeline.testing.SettableClock.atExampleDay();
        var timed = new JobRunner(clock, (loop, error) -> { });
        var inRun = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var ran = new CountDownLatch(1);
        timed.register("hung", () -> {
            inRun.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, Duration.ofSeconds(1));
        timed.register("idle", ran::countDown, Duration.ofHours(1));
        assertThat(timed.pulses()).as("nothing beats before start").isEmpty();
        var startedAt = clock.instant();
        timed.start();
        try {
            assertThat(inRun.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(ran.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(50); // the idle job's run has ended
            clock.tick(Duration.ofMinutes(6));

            var pulses = timed.pulses();
            assertThat(pulses).extracting(JobPulse::job).containsExactly("hung", "idle");
            assertThat(pulses.get(0).runningSince()).as("a run in progress").isEqualTo(startedAt);
            assertThat(pulses.get(1).runningSince()).isNull();

            var policy = new LivenessPolicy(10, Duration.ofMinutes(5));
            var stale = policy.stale(pulses, clock.instant());
            assertThat(stale).as("hung for 6 min > max(10 x 1 s, 5 min); the idle job's allowance is 10 h")
                    .extracting(LivenessPolicy.Stale::job).containsExactly("hung");
            assertThat(stale.get(0).silentFor()).isEqualTo(Duration.ofMinutes(6));
            assertThat(stale.get(0).allowed()).isEqualTo(Duration.ofMinutes(5));

            timed.beat("hung"); // a long run that reports progress is not hung
            assertThat(policy.stale(timed.pulses(), clock.instant())).isEmpty();
        } finally {
            release.countDown();
            timed.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void run_all_once_runs_every_job_in_registration_order_in_the_callers_thread() {
        var order = new CopyOnWriteArrayList<String>();
        var caller = Thread.currentThread();
        var threads = new CopyOnWriteArrayList<Thread>();
        for (var name : List.of("poller", "pump", "dispatcher", "backfill")) {
            runner.register(name, () -> {
                order.add(name);
                threads.add(Thread.currentThread());
            }, Duration.ofHours(1));
        }

        runner.runAllOnce();

        assertThat(order).containsExactly("poller", "pump", "dispatcher", "backfill");
        assertThat(threads).allMatch(thread -> thread == caller);
    }

    @Test
    void run_all_once_runs_the_later_jobs_when_one_fails_then_reports_the_failure() {
        var order = new CopyOnWriteArrayList<String>();
        runner.register("first", () -> order.add("first"), PERIOD);
        runner.register("failing", () -> {
            order.add("failing");
            throw new IllegalStateException("mailbox unreachable");
        }, PERIOD);
        runner.register("last", () -> order.add("last"), PERIOD);

        assertThatThrownBy(runner::runAllOnce)
                .hasMessageContaining("failing")
                .hasRootCauseMessage("mailbox unreachable");
        assertThat(order).containsExactly("first", "failing", "last");
    }

    @Test
    void registration_is_checked() {
        runner.register("poller", () -> { }, PERIOD);

        assertThatThrownBy(() -> runner.register("poller", () -> { }, PERIOD))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> runner.register("pump", () -> { }, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        runner.start();
        assertThatThrownBy(() -> runner.register("pump", () -> { }, PERIOD))
                .isInstanceOf(IllegalStateException.class);
        assertThat(runner.jobNames()).containsExactly("poller");
    }

    @Test
    void a_stepped_runner_runs_each_job_on_its_schedule_of_the_clocks_time_and_the_wakes_at_once() {
        var clock = io.msgx.pipeline.testing.SettableClock.atExampleDay();
        var runs = new CopyOnWriteArrayList<String>();
        var stepped = JobRunner.stepped(clock, (job, error) -> { });
        stepped.register("intake", () -> {
                    runs.add("intake");
                    stepped.wake("pump");
                }, Duration.ofMinutes(1))
                .register("pump", () -> runs.add("pump"), Duration.ofMinutes(10))
                .register("housekeeping", () -> runs.add("housekeeping"), Duration.ofHours(1));
        stepped.start();

        assertThat(stepped.runDue()).as("everything at once; intake's wake of the pump collapses into its first run")
                .isEqualTo(3);
        assertThat(runs).containsExactly("intake", "pump", "housekeeping");
        runs.clear();
        assertThat(stepped.runDue()).as("nothing is due before the clock moves").isZero();

        clock.tick(Duration.ofMinutes(1));
        stepped.runDue();
        assertThat(runs).as("the pump woken nine minutes before its period").containsExactly("intake", "pump");
        runs.clear();
        clock.tick(Duration.ofMinutes(59));
        stepped.runDue();
        assertThat(runs).as("a step longer than a period runs the job once").containsExactly("intake", "pump",
                "housekeeping");
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith(JobRunner.THREAD_PREFIX
                + "intake"));
    }
}
