package io.msgx.runner.embed;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.kafka.KafkaClusterProbe;
import io.msgx.adapter.kafka.KafkaEventSink;
import io.msgx.adapter.kafka.KafkaTopics;
import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageIdentity;
import io.msgx.pipeline.codec.Peek;
import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.delivery.Dispatcher;
import io.msgx.pipeline.delivery.SentEventCleanup;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.inbox.CutoverSeeding;
import io.msgx.pipeline.inbox.InboxPoller;
import io.msgx.pipeline.inbox.PollResult;
import io.msgx.pipeline.lifecycle.BackfillJob;
import io.msgx.pipeline.lifecycle.FlightHistoryCleanup;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.lifecycle.ProcStateArchiver;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.lifecycle.RetentionJob;
import io.msgx.pipeline.mailbox.ReadOnlyMailbox;
import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.FifoHead;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.pump.FlightProcessor;
import io.msgx.pipeline.pump.MessageProcessor;
import io.msgx.pipeline.pump.Pump;
import io.msgx.pipeline.pump.ReferenceProcessor;
import io.msgx.pipeline.pump.TickResult;
import io.msgx.pipeline.request.DailyScheduleRequest;
import io.msgx.pipeline.request.RequestExpiry;
import io.msgx.pipeline.request.RequestSender;
import io.msgx.pipeline.request.ResponseMatcher;
import io.msgx.pipeline.store.InboxCursor;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.jobs.FatalErrorHandler;
import io.msgx.runner.jobs.JobPulse;
import io.msgx.runner.jobs.JobRunner;
import io.msgx.runner.jobs.LivenessPolicy;
import io.msgx.runner.jobs.LivenessReport;
import io.msgx.runner.metrics.FlightCacheMeters;
import io.msgx.runner.metrics.KafkaProducerMeters;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;
import io.msgx.runner.metrics.PipelineGauges;
import io.msgx.runner.metrics.StandardMeters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * The pipeline as one object: for the runner's {@code run} command and for airport services that embed it.
 *
 * <pre>{@code
 * try (var exchange = MsgExchange.builder()
 *         .config(Map.of("msgx.store.url", "jdbc:postgresql://db:5432/msgx",
 *                        "msgx.mailbox.url", "jdbc:mysql://aodb:3306/sis",
 *                        "msgx.kafka.bootstrap-servers", "kafka:9092"))
 *         .build()) {
 *     exchange.migrate();
 *     exchange.start();          // active at once, or a hot standby until the active instance goes away
 *     ...
 *     PipelineStatus status = exchange.status();
 * }                              // close(): finishes the message in hand, commits, stops
 * }</pre>
 *
 * The store is PostgreSQL or Oracle 11g ({@code msgx.store.kind}); what differs between them (the store's classes,
 * the schema migration and check, the lease) sits behind one {@link StoreBackend}, so both start, run and stop the
 * same way.
 *
 * <p>Only one instance is active per store: {@link #start()} takes the store's leader lease (a PostgreSQL advisory
 * lock, an Oracle {@code PIPELINE_LOCK} row lock) and, while another instance holds it, waits as a hot standby.
 * Every background loop runs on the {@link JobRunner}'s threads; nothing else here starts a thread but the lease
 * watcher (and, after a fatal error, the default handler's closer).
 *
 * <p>Kafka is required (D-71): {@link #start()} refuses a cluster that does not answer or lacks one of the three
 * topics, unless {@code msgx.kafka.enabled=false} was set on purpose. {@link #liveness()} tells whether every loop
 * still beats (D-70); a loop that meets a JVM {@link Error} (D-74) goes to the {@link FatalErrorHandler} of
 * {@link Builder#onFatalError} — by default the exchange closes itself (releasing the lease, so a standby takes over)
 * and reports the error through {@link #fatalError()} and {@link #liveness()}; it never ends the embedder's process.
 */
public final class MsgExchange implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MsgExchange.class);

    private final RunnerConfig config;
    private final Clock clock;
    private final MeterRegistry registry;
    private final StoreBackend backend;
    private final ReconnectingPool mailboxPool;
    private final PipelineStore store;
    private final Mailbox mailbox;
    private final XmlCodec codec;
    private final KafkaEventSink sink;
    /** Replay and backfill apart, in this process and between every process sharing the store (seeds §9.1). */
    private final MessageLifecycleGate gate;
    private final StoreBackend.LeaderLease lease;
    private volatile JobRunner jobs;
    private volatile PumpLoop pumpLoop;
    /** The pump's read-ahead of the next group's texts (D-51): one thread, stopped with the jobs. */
    private volatile ExecutorService readAhead;
    /** Confirms a dispatch round while the next is sent (D-40); created with the jobs, shut down with them. */
    private volatile ExecutorService dispatchConfirmations;
    private volatile boolean closed;
    private Thread leaseWatcher;
    /** Lease watcher's state (its thread only): whether it said it waits as a standby, and the store's outages. */
    private boolean standbyAnnounced;
    private final OutageLog leaseOutage;
    private final FlightCache flightCache;
    /**
     * The pipeline's meters and gauges, bound once for the life of the exchange: a gauge registered again under its
     * name stays bound to the first holder, so a binding per activation left the gauges frozen after a fail-over back.
     */
    private final MicrometerPipelineMetrics metrics;
    private final PipelineGauges gauges;
    private final FatalErrorHandler onFatal;
    /** The jobs run when the embedder calls {@link #runDueJobs()}, on the clock's time, instead of on threads. */
    private final boolean stepped;
    private final LivenessPolicy livenessPolicy;
    /** The first fatal error a loop met, as {@code loop: error}; null while none. */
    private volatile String fatal;
    /** The lease watcher's last round: its own pulse, the one sign of life of a standby. */
    private volatile Instant leaseWatcherBeat;
    /** The JVM's, the process's, the build's and the role's meters; the Kafka producer's (null without Kafka). */
    private final StandardMeters standardMeters;
    private final KafkaProducerMeters kafkaMeters;
    private final BuildInfo build = BuildInfo.current();

    private MsgExchange(RunnerConfig config, Clock clock, MeterRegistry registry,
                        UnaryOperator<StoreBackend.LeaderLease> leaseAs, FatalErrorHandler onFatal, boolean stepped) {
        this.config = config;
        this.stepped = stepped;
        this.onFatal = onFatal == null ? closeAndReport() : onFatal;
        this.livenessPolicy = new LivenessPolicy(config.health().livenessPeriods(), config.health().livenessGrace());
        this.clock = clock;
        this.registry = registry;
        this.backend = StoreBackend.open(config.store(), config.lease(), clock);
        this.mailboxPool = ConnectionPools.open("msgx-mailbox", config.mailbox().url(), config.mailbox().user(),
                config.mailbox().password(), 3, hikari -> { });
        this.store = backend.store();
        this.gate = new MessageLifecycleGate(store);
        // With the status check off the status column is not read at all (D-110): a mailbox without it still works.
        Mailbox jdbc = new JdbcMailbox(mailboxPool, config.mailbox().schema(), config.mailbox().zone(),
                Math.max(1, config.mailbox().queryTimeoutSeconds()), !config.processing().acceptedStatuses().off());
        this.mailbox = config.mailbox().readOnly() ? new ReadOnlyMailbox(jdbc) : jdbc;
        this.codec = new JacksonXmlCodec(config.codecLimits(), config.referenceTypes());
        // One cache for the life of the exchange, across fail-overs: a state it holds is used only while its stamp
        // is the stored one (D-39), whatever another instance wrote meanwhile.
        this.flightCache = FlightCache.holding(config.processing().flightCacheSize());
        FlightCacheMeters.bind(registry, flightCache);
        this.metrics = new MicrometerPipelineMetrics(registry);
        this.gauges = new PipelineGauges(store, registry, clock);
        this.kafkaMeters = config.kafka().sink() == null ? null : new KafkaProducerMeters(registry);
        this.sink = config.kafka().sink() == null ? null : new KafkaEventSink(config.kafka().sink(), kafkaMeters);
        this.standardMeters = StandardMeters.bind(registry, build.version(), build.commit(), this::isActive);
        backend.bindMeters(registry);
        mailboxPool.bindMeters(registry);
        this.lease = leaseAs.apply(backend.lease());
        this.leaseOutage = new OutageLog(log, "Pipeline store", clock);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link MsgExchange} from configuration keys (docs/reference.md) or a validated {@link RunnerConfig}. */
    public static final class Builder {
        private RunnerConfig config;
        private Clock clock = Clock.systemUTC();
        private MeterRegistry registry;
        private UnaryOperator<StoreBackend.LeaderLease> leaseAs = UnaryOperator.identity();
        private FatalErrorHandler onFatal;
        private boolean stepped;

        public Builder config(Map<String, String> keys) {
            this.config = RunnerConfig.from(ConfigSource.of(keys));
            return this;
        }

        public Builder config(RunnerConfig config) {
            this.config = config;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = registry;
            return this;
        }

        /**
         * The store's lease as {@code change} makes it: the seam for tests of how the exchange meets a lease that
         * fails as a real store's can (a deadlock's victim, an outage), which the local servers cannot be made to do
         * on demand.
         */
        Builder leaseAs(UnaryOperator<StoreBackend.LeaderLease> change) {
            this.leaseAs = Objects.requireNonNull(change, "change");
            return this;
        }

        /**
         * What happens when a loop meets a JVM {@link Error} (D-74). Without one, the exchange closes itself on a
         * thread of its own and reports the error ({@link #fatalError()}, {@link #liveness()} DOWN): the process stays
         * the embedder's to end. The {@code run} command's handler exits the process with 70.
         */
        public Builder onFatalError(FatalErrorHandler handler) {
            this.onFatal = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * The pipeline's jobs start no thread: they run, each on its schedule as the {@linkplain #clock clock} tells
         * time, when the embedder calls {@link MsgExchange#runDueJobs()}. For simulations that run many days on a
         * settable clock in minutes (the lifetime soak); a production embedding never sets it.
         */
        public Builder steppedJobs() {
            this.stepped = true;
            return this;
        }

        public MsgExchange build() {
            Objects.requireNonNull(config, "config: give the configuration keys or a RunnerConfig");
            return new MsgExchange(config, clock,
                    registry == null ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) : registry, leaseAs, onFatal,
                    stepped);
        }
    }

    /**
     * Bring the store's schema to this build's version (Flyway on PostgreSQL, the versioned DDL scripts on Oracle);
     * a no-op when it is current. Returns how many migrations ran.
     */
    public int migrate() {
        return backend.migrate();
    }

    /** Where the pipeline's tables live, e.g. {@code PostgreSQL schema msgx} or {@code Oracle schema MSGX}. */
    public String storeDescription() {
        return backend.describe();
    }

    /**
     * Start: check the schema is the one this build knows, then become active (or a hot standby until the lease
     * is free). Returns at once; {@link #isActive()} tells which.
     */
    public synchronized void start() {
        log.info("msgexchange {} on Java {}: starting on {}", build.describe(), Runtime.version(), backend.describe());
        backend.requireCurrent();
        backend.caution(build).ifPresent(caution -> log.warn("{}", caution));
        requireIdentityAlgorithm();
        if (sink != null) {
            requireKafka();
        }
        if (config.mailbox().readOnly()) {
            log.warn("SHADOW DEPLOYMENT ({}=true): this instance never writes to the shared mailbox — no processing "
                    + "marks, no outbound requests, no compatibility entry", ReadOnlyMailbox.KEY);
        }
        if (sink == null) {
            log.warn("Kafka is turned off ({}=false): events are kept in the outbox until an instance with Kafka "
                    + "publishes them", Keys.KAFKA_ENABLED);
        }
        leaseWatcherBeat = clock.instant();
        leaseWatcher = new Thread(this::watchLease, "msgx-lease");
        leaseWatcher.setDaemon(true);
        leaseWatcher.start();
    }

    /**
     * Refuses to start when the identities the store holds were made by another algorithm than the one configured
     * (D-86), unless {@code msgx.identity.accept-algorithm-change=true} says the change is meant.
     */
    private void requireIdentityAlgorithm() {
        var change = MessageIdentity.algorithmChange(store.identities().latestIdentityKey(),
                config.processing().identityWithDay());
        if (change.isEmpty()) {
            return;
        }
        if (!config.acceptIdentityChange()) {
            throw new IllegalStateException("Refusing to start: " + change.get());
        }
        log.warn("The identity algorithm changes ({}=true): {}", Keys.IDENTITY_ACCEPT_CHANGE, change.get());
    }

    /**
     * Built with {@link Builder#steppedJobs()}: run every job that is due by the clock, in the caller's thread, and the
     * ones their runs woke; returns how many runs there were (0 while this instance is not active).
     */
    public int runDueJobs() {
        if (!stepped) {
            throw new IllegalStateException("runDueJobs() is for an exchange built with steppedJobs(); this one runs "
                    + "its jobs on threads of their own");
        }
        var running = jobs;
        return running == null ? 0 : running.runDue();
    }

    /**
     * The real time each of the pipeline's jobs has taken since this instance became active ({@code poller},
     * {@code pump}, {@code dispatcher}, the lifecycle jobs ...); empty while it is not active.
     */
    public Map<String, Duration> jobBusyTimes() {
        var running = jobs;
        return running == null ? Map.of() : running.busyTimes();
    }

    /** True while this instance holds the lease and runs the pipeline. */
    public boolean isActive() {
        return jobs != null;
    }

    /**
     * Start-up refuses a Kafka that does not answer, or lacks a topic (D-71): the outbox would otherwise fill in
     * silence, and a missing reference topic left the reference events pending forever. It refuses a schd or reference
     * topic that is not compacted too: a topic that deletes by age would lose the state of quiet flights (issue 35).
     * Bounded by the request timeout.
     */
    private void requireKafka() {
        var settings = config.kafka().sink();
        var bound = settings.requestTimeout();
        var problem = new KafkaClusterProbe(settings).problem(bound);
        if (problem.isPresent()) {
            throw new IllegalStateException("Kafka is required and does not answer at start-up: " + problem.get()
                    + ". Check " + Keys.KAFKA_BOOTSTRAP + " (and the msgx.kafka.producer.* security "
                    + "settings), or set " + Keys.KAFKA_ENABLED + "=false to run without publishing");
        }
        var missing = KafkaTopics.missing(settings, bound);
        if (!missing.isEmpty()) {
            var lines = new ArrayList<String>();
            for (var topic : missing) {
                var key = topic.equals(settings.msgTopic()) ? Keys.KAFKA_TOPIC_MSG
                        : topic.equals(settings.schdTopic()) ? Keys.KAFKA_TOPIC_SCHD
                        : Keys.KAFKA_TOPIC_REFERENCE;
                lines.add(topic + " (" + key + "): kafka-topics.sh --bootstrap-server " + settings.bootstrapServers()
                        + " --create --topic " + topic + (key.equals(Keys.KAFKA_TOPIC_MSG) ? ""
                        : " --config cleanup.policy=compact"));
            }
            throw new IllegalStateException("Kafka at " + settings.bootstrapServers() + " lacks the topic(s) this "
                    + "service publishes to; create them (partitions, replication and retention are the cluster's "
                    + "decision, docs/operations.md), or correct the topic keys:\n  " + String.join("\n  ", lines));
        }
        KafkaTopics.notCompacted(settings, bound).ifPresent(refusal -> {
            throw new IllegalStateException("Kafka at " + settings.bootstrapServers() + ": " + refusal);
        });
    }

    private void watchLease() {
        try {
            while (!closed) {
                leaseWatcherBeat = clock.instant();
                try {
                    Thread.sleep(checkLease().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    log.warn("Lease watcher: {}", e.toString());
                    sleepQuietly(config.standbyPoll());
                }
            }
        } catch (Error e) {
            log.error("Lease watcher hit {}; it ends here", e.toString(), e);
            fatal("lease-watcher", e);
        }
    }

    /** A loop met an Error: remember the first, hand it to the handler (the loop's schedule ends after). */
    private void fatal(String loop, Error error) {
        if (fatal == null) {
            fatal = loop + ": " + error;
        }
        onFatal.onFatalError(loop, error);
    }

    /**
     * The default for embedders: close on a thread of our own (the failing loop's thread cannot wait for itself to
     * end), which stops every loop and releases the lease so a standby takes over; the error stays reported.
     */
    private FatalErrorHandler closeAndReport() {
        return (loop, error) -> {
            log.error("Closing this exchange after {} in {}: the embedding application decides what happens next "
                    + "(MsgExchange.fatalError() tells it)", error.toString(), loop);
            var closer = new Thread(this::close, "msgx-fatal-close");
            closer.setDaemon(true);
            closer.start();
        };
    }

    /** The fatal error a loop met, as {@code loop: error}; empty while none (D-74). */
    public Optional<String> fatalError() {
        return Optional.ofNullable(fatal);
    }

    /**
     * Whether every loop of this instance still beats (D-70): the lease watcher always (the one loop of a standby), and
     * the pipeline's jobs while active. A loop is stale when it gave no sign of life for {@code msgx.health.liveness-
     * periods} of its periods, never sooner than {@code msgx.health.liveness-grace}; a fatal error makes it DOWN at once.
     * Before {@link #start()} and after {@link #close()} nothing is expected to beat.
     */
    public LivenessReport liveness() {
        var pulses = new ArrayList<JobPulse>();
        var watcherBeat = leaseWatcherBeat;
        if (watcherBeat != null && !closed) {
            var longest = config.standbyPoll().compareTo(config.pollInterval()) > 0 ? config.standbyPoll() : config.pollInterval();
            pulses.add(new JobPulse("lease-watcher", longest, watcherBeat, null));
        }
        var running = jobs;
        if (running != null) {
            pulses.addAll(running.pulses());
        }
        return new LivenessReport(livenessPolicy.stale(pulses, clock.instant()), fatal);
    }

    /**
     * One look at the lease; returns how long until the next. Active, the lease is checked every poll interval, so a
     * lost session stops the pipeline at once. Without it: while another instance holds it, a hot standby asks again
     * every {@code msgx.jobs.standby-poll}; while the store cannot be reached (the lease was lost to an outage, most
     * often), as often as the pump ticks, so the pipeline is back within two poll intervals of the store's return.
     */
    private Duration checkLease() {
        if (jobs != null) {
            if (lease.isHeld()) {
                return config.pollInterval();
            }
            log.error("Leader lease lost: stopping the pipeline on this instance");
            stopJobs();
        }
        boolean acquired;
        try {
            acquired = lease.tryAcquire();
        } catch (StoreConflictException e) {
            // The store is there: it rolled the lease's statement back to break a conflict with another instance's.
            log.warn("Leader lease: the store rolled the request back to break a conflict, asking again in {}: {}",
                    pumpPeriod(), e.getMessage());
            return pumpPeriod();
        } catch (StoreUnavailableException e) {
            leaseOutage.failed(e.getMessage(), "the lease is asked for again every " + pumpPeriod());
            return pumpPeriod();
        }
        leaseOutage.recovered();
        if (acquired) {
            becomeActive();
            standbyAnnounced = false;
            return config.pollInterval();
        }
        if (!standbyAnnounced) {
            log.info("Another instance is active on {}: waiting as a hot standby", backend.describe());
            standbyAnnounced = true;
        }
        return config.standbyPoll();
    }

    /**
     * How often the pump looks for work on its own (a quarter of the poll interval, at least 50 ms); intake wakes it
     * sooner. Also how often the lease is asked for again while the store cannot be reached.
     */
    private Duration pumpPeriod() {
        return Duration.ofMillis(Math.max(50, config.pollInterval().toMillis() / 4));
    }

    private static void sleepQuietly(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void becomeActive() {
        if (closed) {
            return;
        }
        lease.fenceStore(); // from now on every write to the store proves the lease (D-108), the cut-over's too
        if (config.cutoverWatermark() != null) {
            var seeding = new CutoverSeeding(mailbox, store.inboxCursor(), clock);
            log.info("Cut-over: {}", seeding.seed(config.cutoverWatermark()));
        }
        var engine = new FlightStateEngine(config.engine());
        var poller = new InboxPoller(mailbox, store, clock, config.inbox(), metrics);
        var responses = new ResponseMatcher(config.engine().operationDayRule(), config.requestClockSkew(), mailbox,
                config.requests().seqns());
        readAhead = Executors.newSingleThreadExecutor(JobRunner.daemonThread("read-ahead"));
        var processor = new MessageProcessor(mailbox, store, codec,
                new FlightProcessor(store, engine, clock, config.responseGuard() ? responses : null,
                        flightCache),
                new ReferenceProcessor(store, clock, responses, config.reference()),
                config.processing(), clock, metrics, readAhead);
        var loop = new PumpLoop(new Pump(store, processor, config.processing().retry(), config.processing().groupSize(),
                clock, metrics));
        var runner = stepped ? JobRunner.stepped(clock, this::fatal) : new JobRunner(clock, this::fatal);
        // Each loop wakes the next when it passed work on, so a message does not wait for the next period; intake
        // that met an outage tries again as often as the pump ticks, so it is back soon after the mailbox is.
        runner.register("poller", () -> {
                    if (!drainMailbox(poller, config.inbox().claimBatch(), () -> runner.wake("pump"),
                            () -> runner.beat("poller"))) {
                        runner.wakeAfter("poller", pumpPeriod());
                    }
                }, config.pollInterval())
                .register("pump", () -> {
                    if (loop.runOnce(() -> runner.beat("pump")) && sink != null) {
                        runner.wake("dispatcher");
                    }
                }, pumpPeriod())
                .register("gauges", gauges::runOnce, Duration.ofSeconds(10))
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
            runner.register("request-confirmation", requestSender()::confirmPending, Duration.ofMinutes(1));
            if (config.dailyScheduleAt() != null) {
                runner.register("daily-schedule-request", new DailyScheduleRequest(requestSender(),
                        config.dailyScheduleAt(), config.engine().operationDayRule(), clock)::runOnce, Duration.ofMinutes(1));
            }
            runner.register("backfill",
                    new BackfillJob(mailbox, store.backfillMarks(), gate, config.lifecycle(), true, clock)::runOnce,
                    config.backfillInterval());
        }
        if (sink != null) {
            dispatchConfirmations = JobRunner.oneThreadEndingWhenIdle("dispatch-confirm", Duration.ofSeconds(10));
            var dispatcher = new Dispatcher(store, new LeaseGuardedSink(sink, lease::isHeldByOwnClock), config.dispatch(),
                    clock, metrics, dispatchConfirmations);
            runner.register("dispatcher", () -> {
                while (!closed) { // keep delivering while there is work; the period paces the idle checks
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
        pumpLoop = loop;
        runner.start();
        jobs = runner;
        log.info("Pipeline active: jobs {}", runner.jobNames());
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

    private synchronized void stopJobs() {
        var running = jobs;
        if (running == null) {
            return;
        }
        pumpLoop.stop();
        running.stop(Duration.ofSeconds(30));
        readAhead.shutdown(); // a read-ahead in flight ends on its own; none starts any more
        if (dispatchConfirmations != null) {
            dispatchConfirmations.shutdown(); // the dispatcher awaited its last confirmation before its job stopped
            dispatchConfirmations = null;
        }
        jobs = null;
    }

    /** The store, for operators' commands. */
    public PipelineStore store() {
        return store;
    }

    /** The mailbox as configured (read-only in a shadow deployment). */
    public Mailbox mailbox() {
        return mailbox;
    }

    public RunnerConfig config() {
        return config;
    }

    public XmlCodec codec() {
        return codec;
    }

    public Clock clock() {
        return clock;
    }

    public MeterRegistry meterRegistry() {
        return registry;
    }

    /** Sends our requests to the AODB side; null in a shadow deployment (it writes to the mailbox). */
    public RequestSender requestSender() {
        return config.mailbox().readOnly() ? null
                : new RequestSender(mailbox, store, config.requests(), config.engine().operationDayRule(), clock);
    }

    public ReplayService replayService() {
        return new ReplayService(store.replays(), gate, config.replayable(), clock);
    }

    /** The compatibility entry's service; null in a shadow deployment (it writes to the mailbox). */
    public CompatEntry compatEntry() {
        return config.mailbox().readOnly() ? null : new CompatEntry(mailbox, store.queue(), codec, clock);
    }

    public PipelineStatus status() {
        var now = clock.instant();
        var cursor = store.inboxCursor().load();
        var backlog = store.messageQueries().backlog();
        var delivery = store.outboxQueries().deliveryBacklog();
        var backfill = store.backfillMarks().backfillBacklog();
        var oldest = backlog.oldestOpenEnqueuedAt();
        var head = fifoHead(cursor, now).orElse(null);
        return new PipelineStatus(isActive(), cursor.watermark(), cursor.holeSince(), backlog.pending() + backlog.failed(),
                oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toSeconds()),
                backlog.failed(), backlog.dead(), delivery.pending(), delivery.dead(), backfill.owed(),
                backfill.abandoned(), head);
    }

    /**
     * The head of the FIFO queue now, and what holds it; empty when nothing is open. Two indexed reads (and a peek into
     * the mailbox while the head has no identity yet): cheap enough for every readiness probe.
     */
    public Optional<FifoHead> fifoHead() {
        return fifoHead(store.inboxCursor().load(), clock.instant());
    }

    private Optional<FifoHead> fifoHead(InboxCursor cursor, Instant now) {
        return store.queue().head().map(record -> FifoHead.of(record, cursor, kindOf(record), now));
    }

    /**
     * The kind ({@code TYPE-STYP}) of an open message: from the identity its first attempt bound, else peeked from its
     * text in the mailbox; null when neither tells (the mailbox unreachable, the text gone or unreadable). Never
     * throws: the status of a pipeline whose mailbox is down must still be shown.
     */
    private String kindOf(ProcRecord record) {
        var fromIdentity = MessageIdentity.kindOf(record.identityKey());
        if (fromIdentity.isPresent()) {
            return fromIdentity.get();
        }
        try {
            return mailbox.readText(record.msgId()).flatMap(text -> Peek.scan(text).kind()).orElse(null);
        } catch (RuntimeException e) {
            log.debug("Kind of message {} not peeked from the mailbox: {}", record.msgId(), e.toString());
            return null;
        }
    }

    /** Stop: finish the message in hand, commit, stop every job, release the lease, close connections. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopJobs();
        if (leaseWatcher != null) {
            leaseWatcher.interrupt();
        }
        lease.close();
        if (kafkaMeters != null) {
            kafkaMeters.close();
        }
        if (sink != null) {
            sink.close();
        }
        standardMeters.close();
        mailboxPool.close();
        backend.close();
        log.info("Stopped");
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
