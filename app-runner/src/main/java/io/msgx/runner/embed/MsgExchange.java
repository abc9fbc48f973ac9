package io.msgx.runner.embed;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.kafka.KafkaEventSink;
import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.mailbox.ReadOnlyMailbox;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.FifoHead;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.request.RequestSender;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.jobs.FatalErrorHandler;
import io.msgx.runner.jobs.JobPulse;
import io.msgx.runner.jobs.JobRunner;
import io.msgx.runner.jobs.LivenessPolicy;
import io.msgx.runner.jobs.LivenessReport;
import io.msgx.runner.jobs.PipelineJobs;
import io.msgx.runner.jobs.PipelineParts;
import io.msgx.runner.metrics.FlightCacheMeters;
import io.msgx.runner.metrics.KafkaProducerMeters;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;
import io.msgx.runner.metrics.PipelineGauges;
import io.msgx.runner.metrics.StandardMeters;
import io.msgx.runner.standby.ActiveRole;
import io.msgx.runner.standby.LeaderLease;
import io.msgx.runner.standby.LeaseWatcher;
import io.msgx.runner.startup.StartupChecks;
import io.msgx.runner.store.ConnectionPools;
import io.msgx.runner.store.ReconnectingPool;
import io.msgx.runner.store.StoreBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

    private final PipelineParts parts;
    private final MeterRegistry registry;
    private final StoreBackend backend;
    private final ReconnectingPool mailboxPool;
    private final KafkaEventSink sink;
    private final LeaderLease lease;
    private final ActiveRole role;
    private final LeaseWatcher leaseWatcher;
    private boolean closed;
    private final FatalErrorHandler onFatal;
    /** The jobs run when the embedder calls {@link #runDueJobs()}, on the clock's time, instead of on threads. */
    private final boolean stepped;
    private final LivenessPolicy livenessPolicy;
    /** The first fatal error a loop met, as {@code loop: error}; null while none. */
    private volatile String fatal;
    /** The JVM's, the process's, the build's and the role's meters; the Kafka producer's (null without Kafka). */
    private final StandardMeters standardMeters;
    private final KafkaProducerMeters kafkaMeters;
    private final BuildInfo build = BuildInfo.current();

    private MsgExchange(RunnerConfig config, Clock clock, MeterRegistry registry,
                        UnaryOperator<LeaderLease> leaseAs, FatalErrorHandler onFatal, boolean stepped) {
        this.stepped = stepped;
        this.onFatal = onFatal == null ? closeAndReport() : onFatal;
        this.livenessPolicy = new LivenessPolicy(config.health().livenessPeriods(), config.health().livenessGrace());
        this.registry = registry;
        this.backend = StoreBackend.open(config.store(), config.lease(), clock);
        this.mailboxPool = ConnectionPools.open("msgx-mailbox", config.mailbox().url(), config.mailbox().user(),
                config.mailbox().password(), 3, hikari -> { });
        var store = backend.store();
        // With the status check off the status column is not read at all (D-110): a mailbox without it still works.
        Mailbox jdbc = new JdbcMailbox(mailboxPool, config.mailbox().schema(), config.mailbox().zone(),
                Math.max(1, config.mailbox().queryTimeoutSeconds()), !config.processing().acceptedStatuses().off());
        var flightCache = FlightCache.holding(config.processing().flightCacheSize());
        FlightCacheMeters.bind(registry, flightCache);
        this.parts = new PipelineParts(config, clock, store, config.mailbox().readOnly() ? new ReadOnlyMailbox(jdbc) : jdbc,
                new JacksonXmlCodec(config.codecLimits(), config.referenceTypes()), new MessageLifecycleGate(store),
                flightCache, new MicrometerPipelineMetrics(registry), new PipelineGauges(store, registry, clock));
        this.kafkaMeters = config.kafka().sink() == null ? null : new KafkaProducerMeters(registry);
        this.sink = config.kafka().sink() == null ? null : new KafkaEventSink(config.kafka().sink(), kafkaMeters);
        this.lease = leaseAs.apply(backend.lease());
        this.role = new ActiveRole(lease, parts, sink, stepped, this::fatal);
        this.standardMeters = StandardMeters.bind(registry, build.version(), build.commit(), this::isActive);
        backend.bindMeters(registry);
        mailboxPool.bindMeters(registry);
        this.leaseWatcher = new LeaseWatcher(lease, backend.describe(), config.pollInterval(), config.standbyPoll(),
                clock, role, this::fatal);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link MsgExchange} from configuration keys (docs/reference.md) or a validated {@link RunnerConfig}. */
    public static final class Builder {
        private RunnerConfig config;
        private Clock clock = Clock.systemUTC();
        private MeterRegistry registry;
        private UnaryOperator<LeaderLease> leaseAs = UnaryOperator.identity();
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
        Builder leaseAs(UnaryOperator<LeaderLease> change) {
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
        StartupChecks.require(backend, build, parts.store(), parts.config());
        leaseWatcher.start();
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
        return role.jobs().map(PipelineJobs::runDue).orElse(0);
    }

    /**
     * The real time each of the pipeline's jobs has taken since this instance became active ({@code poller},
     * {@code pump}, {@code dispatcher}, the lifecycle jobs ...); empty while it is not active.
     */
    public Map<String, Duration> jobBusyTimes() {
        return role.jobs().map(PipelineJobs::busyTimes).orElse(Map.of());
    }

    /** True while this instance holds the lease and runs the pipeline. */
    public boolean isActive() {
        return role.active();
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
        leaseWatcher.pulse().ifPresent(pulses::add);
        role.jobs().ifPresent(jobs -> pulses.addAll(jobs.pulses()));
        return new LivenessReport(livenessPolicy.stale(pulses, parts.clock().instant()), fatal);
    }

    /** The store, for operators' commands. */
    public PipelineStore store() {
        return parts.store();
    }

    /** The mailbox as configured (read-only in a shadow deployment). */
    public Mailbox mailbox() {
        return parts.mailbox();
    }

    public RunnerConfig config() {
        return parts.config();
    }

    public XmlCodec codec() {
        return parts.codec();
    }

    public Clock clock() {
        return parts.clock();
    }

    public MeterRegistry meterRegistry() {
        return registry;
    }

    /** Sends our requests to the AODB side; null in a shadow deployment (it writes to the mailbox). */
    public RequestSender requestSender() {
        return parts.requestSender();
    }

    public ReplayService replayService() {
        return new ReplayService(parts.store().replays(), parts.gate(), parts.config().replayable(), parts.clock());
    }

    /** The compatibility entry's service; null in a shadow deployment (it writes to the mailbox). */
    public CompatEntry compatEntry() {
        return parts.config().mailbox().readOnly() ? null
                : new CompatEntry(parts.mailbox(), parts.store().queue(), parts.codec(), parts.clock());
    }

    public PipelineStatus status() {
        return PipelineStatus.read(parts.store(), parts.mailbox(), isActive(), parts.clock().instant());
    }

    /**
     * The head of the FIFO queue now, and what holds it; empty when nothing is open. Two indexed reads (and a peek into
     * the mailbox while the head has no identity yet): cheap enough for every readiness probe.
     */
    public Optional<FifoHead> fifoHead() {
        return PipelineStatus.fifoHead(parts.store(), parts.mailbox(), parts.clock().instant());
    }

    /** Stop: finish the message in hand, commit, stop every job, release the lease, close connections. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        role.close();
        leaseWatcher.stop();
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
}
