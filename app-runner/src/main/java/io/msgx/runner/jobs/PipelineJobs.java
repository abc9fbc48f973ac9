package io.msgx.runner.jobs;

import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.pipeline.delivery.Dispatcher;
import io.msgx.pipeline.delivery.SentEventCleanup;
import io.msgx.pipeline.inbox.InboxPoller;
import io.msgx.pipeline.inbox.PollResult;
import io.msgx.pipeline.lifecycle.BackfillJob;
import io.msgx.pipeline.lifecycle.FlightHistoryCleanup;
import io.msgx.pipeline.lifecycle.ProcStateArchiver;
import io.msgx.pipeline.lifecycle.RetentionJob;
import io.msgx.pipeline.port.EventSink;
import io.msgx.pipeline.pump.FlightProcessor;
import io.msgx.pipeline.pump.MessageProcessor;
import io.msgx.pipeline.pump.Pump;
import io.msgx.pipeline.pump.ReferenceProcessor;
import io.msgx.pipeline.pump.TickResult;
import io.msgx.pipeline.request.DailyScheduleRequest;
import io.msgx.pipeline.request.RequestExpiry;
import io.msgx.pipeline.request.ResponseMatcher;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The pipeline's job schedule on the active instance: which loops run (intake, pump, dispatcher, the lifecycle and
 * request jobs), how often, and how each wakes the next. Built and started when the instance takes the leader lease,
 * stopped when it loses it or closes; every loop runs on the {@link JobRunner}'s threads, or, stepped, when the
 * embedder asks ({@link #runDue()}).
 */
public final class PipelineJobs {

    private final JobRunner runner;
    private final PumpLoop pumpLoop;
    /** The pump's read-ahead of the next group's texts (D-51): one thread, stopped with the jobs. */
    private final ExecutorService readAhead;
    /** Confirms a dispatch round while the next is sent (D-40); null without a sink. */
    private final ExecutorService dispatchConfirmations;

    private PipelineJobs(JobRunner runner, PumpLoop pumpLoop, ExecutorService readAhead,
                         ExecutorService dispatchConfirmations) {
        this.runner = runner;
        this.pumpLoop = pumpLoop;
        this.readAhead = readAhead;
        this.dispatchConfirmations = dispatchConfirmations;
    }

    /**
     * Build every job on {@code parts} and start them.
     *
     * @param sink    where the dispatcher hands the events; null without Kafka (no dispatcher then)
     * @param stepped the jobs run when {@link #runDue()} is called, on the clock's time, instead of on threads
     * @param closed  true once the exchange is closing: the dispatcher stops delivering its backlog
     */
    public static PipelineJobs start(PipelineParts parts, EventSink sink, boolean stepped, FatalErrorHandler onFatal,
                                     BooleanSupplier closed) {
        var config = parts.config();
        var clock = parts.clock();
        var store = parts.store();
        var mailbox = parts.mailbox();
        var metrics = parts.metrics();
        var engine = new FlightStateEngine(config.engine());
        var poller = new InboxPoller(mailbox, store, clock, config.inbox(), metrics);
        var responses = new ResponseMatcher(config.engine().operationDayRule(), config.requestClockSkew(), mailbox,
                config.requests().seqns());
        var readAhead = Executors.newSingleThreadExecutor(JobRunner.daemonThread("read-ahead"));
        var processor = new MessageProcessor(mailbox, store, parts.codec(),
                new FlightProcessor(store, engine, clock, config.responseGuard() ? responses : null,
                        parts.flightCache()),
                new ReferenceProcessor(store, clock, responses, config.reference()),
                config.processing(), clock, metrics, readAhead);
        var loop = new PumpLoop(new Pump(store, processor, config.processing().retry(), config.processing().groupSize(),
                clock, metrics));
        var runner = stepped ? JobRunner.stepped(clock, onFatal) : new JobRunner(clock, onFatal);
        var pumpPeriod = pumpPeriod(config.pollInterval());
        // Each loop wakes the next when it passed work on, so a message does not wait for the next period; intake
        // that met an outage tries again as often as the pump ticks, so it is back soon after the mailbox is.
        runner.register("poller", () -> {
                    if (!drainMailbox(poller, config.inbox().claimBatch(), () -> runner.wake("pump"),
                            () -> runner.beat("poller"))) {
                        runner.wakeAfter("poller", pumpPeriod);
                    }
                }, config.pollInterval())
                .register("pump", () -> {
                    if (loop.runOnce(() -> runner.beat("pump")) && sink != null) {
                        runner.wake("dispatcher");
                    }
                }, pumpPeriod)
                .register("gauges", parts.gauges()::runOnce, Duration.ofSeconds(10))
                .register("archive", new ProcStateArchiver(store, config.lifecycle(), 500, clock)::runOnce,
                        config.housekeepingInterval())
                .register("flight-history", new FlightHistoryCleanup(store, engine, config.engine().operationDayRule(),
                        config.history(), clock)::runOnce, config.housekeepingInterval())
                .register("retention", new RetentionJob(store, config.lifecycle(), config.retention(),
                        config.engine().operationDayRule(), clock)::runOnce, config.housekeepingInterval())
                .register("event-cleanup",
                        new SentEventCleanup(store.outboxCleanup(), clock, config.eventRetention(), 1000)::runOnce,
                        config.housekeepingInterval());
        if (!config.mailbox().readOnly()) {
            runner.register("request-expiry", new RequestExpiry(store, config.requestTimeout(), clock)::runOnce,
                    Duration.ofMinutes(1));
            runner.register("request-confirmation", parts.requestSender()::confirmPending, Duration.ofMinutes(1));
            if (config.dailyScheduleAt() != null) {
                runner.register("daily-schedule-request", new DailyScheduleRequest(parts.requestSender(),
                        config.dailyScheduleAt(), config.engine().operationDayRule(), clock)::runOnce, Duration.ofMinutes(1));
            }
            runner.register("backfill",
                    new BackfillJob(mailbox, store.backfillMarks(), parts.gate(), config.lifecycle(), true, clock)::runOnce,
                    config.backfillInterval());
        }
        ExecutorService dispatchConfirmations = null;
        if (sink != null) {
            dispatchConfirmations = JobRunner.oneThreadEndingWhenIdle("dispatch-confirm", Duration.ofSeconds(10));
            var dispatcher = new Dispatcher(store, sink, config.dispatch(), clock, metrics, dispatchConfirmations);
            runner.register("dispatcher", () -> {
                while (!closed.getAsBoolean()) { // keep delivering while there is work; the period paces the idle checks
                    var result = dispatcher.dispatchBacklog();
                    if (result.outage()) { // the broker is away (D-66): try again after the dispatcher's backoff
                        runner.wakeAfter("dispatcher", result.brokerAway());
                        break;
                    }
                    if (result.idle()) {
                        break;
                    }
                    runner.beat("dispatcher");
                }
            }, config.dispatchInterval());
        }
        var jobs = new PipelineJobs(runner, loop, readAhead, dispatchConfirmations);
        runner.start();
        return jobs;
    }

    /**
     * How often the pump looks for work on its own (a quarter of the poll interval, at least 50 ms); intake wakes it
     * sooner. Also how often the lease is asked for again while the store cannot be reached.
     */
    public static Duration pumpPeriod(Duration pollInterval) {
        return Duration.ofMillis(Math.max(50, pollInterval.toMillis() / 4));
    }

    /**
     * Poll until the mailbox has no full batch after the watermark (a backlog is taken in one go, not one batch per
     * period), calling {@code wakePump} after every poll that enqueued anything: the pump starts on the first batch
     * while intake reads the next. False when the mailbox could not be read.
     */
    private static boolean drainMailbox(InboxPoller poller, int claimBatch, Runnable wakePump, Runnable progress) {
        for (int round = 0; round < 10_000; round++) {
            if (round > 0) {
                progress.run();
            }
            var result = poller.pollOnce();
            if (result instanceof PollResult.Advanced advanced) {
                if (advanced.enqueued() > 0) {
                    wakePump.run();
                }
                if (advanced.enqueued() < claimBatch) {
                    return true;
                }
            } else if (result instanceof PollResult.HoleReleased) {
                wakePump.run();
            } else if (result instanceof PollResult.HeldAtHole held) {
                if (held.enqueued() > 0) {
                    wakePump.run();
                }
                return true;
            } else {
                return !(result instanceof PollResult.MailboxUnavailable);
            }
        }
        return true;
    }

    /** The names of the jobs, in their order. */
    public List<String> jobNames() {
        return runner.jobNames();
    }

    /** Run every job that is due by the clock, in the caller's thread, and the ones their runs woke (stepped only). */
    public int runDue() {
        return runner.runDue();
    }

    /** The real time each job has taken since the jobs started. */
    public Map<String, Duration> busyTimes() {
        return runner.busyTimes();
    }

    /** Each job's last sign of life. */
    public List<JobPulse> pulses() {
        return runner.pulses();
    }

    /** Stop: the pump between messages, then every job (waiting up to 30 s), then their helper threads. */
    public void stop() {
        pumpLoop.stop();
        runner.stop(Duration.ofSeconds(30));
        readAhead.shutdown(); // a read-ahead in flight ends on its own; none starts any more
        if (dispatchConfirmations != null) {
            dispatchConfirmations.shutdown(); // the dispatcher awaited its last confirmation before its job stopped
        }
    }

    /** The pump as a job: tick while there is work, stop between messages when asked. */
    static final class PumpLoop {
        private final Pump pump;
        private volatile boolean stopping;

        PumpLoop(Pump pump) {
            this.pump = pump;
        }

        /** Tick until there is nothing to do now, calling {@code progress} between ticks; true when anything was processed. */
        boolean runOnce(Runnable progress) {
            boolean processed = false;
            for (int i = 0; i < 10_000 && !stopping; i++) {
                if (i > 0) {
                    progress.run();
                }
                var result = pump.tick();
                if (!(result instanceof TickResult.Processed) && !(result instanceof TickResult.Exhausted)) {
                    return processed;
                }
                processed = true;
            }
            return processed;
        }

        void stop() {
            stopping = true;
        }
    }
}
