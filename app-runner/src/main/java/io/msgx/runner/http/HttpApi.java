package io.msgx.runner.http;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.pump.FifoHead;
import io.msgx.runner.console.Console;
import io.msgx.runner.embed.MsgExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The runner's HTTP side on the JDK's {@link HttpServer}, served by {@value #THREADS} daemon threads named
 * {@code msgx-http-<n>}:
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><th>endpoint</th><th>answers</th></tr>
 *   <tr><td>{@code POST /cminmsgs/send}</td><td>202, 400, 401, 403, 405, 413, 415, 503 — see
 *       {@link CompatEntryEndpoint}</td></tr>
 *   <tr><td>{@code GET /health/live}</td><td>200 {@code {"status":"UP"}} while every loop beats; 503 naming the
 *       stale loops — see {@link LivenessEndpoint}</td></tr>
 *   <tr><td>{@code GET /health/ready}</td><td>200 when every {@link ReadinessCheck} is UP within
 *       {@link HttpSettings#readyTimeout()}, else 503; JSON lists each check</td></tr>
 *   <tr><td>{@code GET /metrics}</td><td>200, Prometheus text format 0.0.4</td></tr>
 *   <tr><td>{@code GET /reference/{TYPE}}, {@code GET /reference/{TYPE}/{KEY}}</td><td>200 JSON, 401, 404, 503 —
 *       see {@link ReferenceEndpoint}</td></tr>
 *   <tr><td>{@code /console/...}</td><td>the operations console (HTML, same token), mounted by
 *       {@link #forExchange} — see {@link Console}</td></tr>
 * </table>
 * Anything else is 404; another method on an endpoint is 405.
 *
 * <p>Lifecycle: {@link #start()} once; {@link #stop(Duration)} refuses new requests (503), waits up to the grace
 * for those running, then closes. {@link #close()} stops with a grace of {@link #DEFAULT_GRACE}.
 */
public final class HttpApi implements AutoCloseable {

    /** The server's threads: a few are plenty for probes, scrapes and an occasional compatibility message. */
    public static final int THREADS = 3;
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    private final HttpSettings settings;
    private final CompatEntry entry;
    private final ReadinessProbe probe;
    private final PrometheusMeterRegistry registry;
    private final ReferenceData references;
    private final InFlightFilter inFlight = new InFlightFilter();
    /** What {@code /health/live} answers; always UP unless built {@link #forExchange} (then the exchange's loops). */
    private java.util.function.Supplier<io.msgx.runner.jobs.LivenessReport> liveness = io.msgx.runner.jobs.LivenessReport::alive;
    /** The operations console under {@value Console#PREFIX}; only a runner built {@link #forExchange} has one. */
    private Console console;
    /** The FIFO head shown in {@code /health/ready}'s body; none when the API is built without an exchange. */
    private Supplier<Optional<FifoHead>> head = Optional::empty;

    /** The checks' answers as gauges, probed in the background while the server runs. */
    private final CheckGauges checkGauges;

    private HttpServer server;
    private ExecutorService executor;
    private boolean stopped;

    /**
     * @param settings host, port, token, body limit, readiness timeout
     * @param entry    the compatibility entry; null when this runner offers none (then 403)
     * @param checks   the readiness checks, each with its own name
     * @param registry the registry {@code /metrics} shows
     */
    public HttpApi(HttpSettings settings, CompatEntry entry, List<ReadinessCheck> checks,
                   PrometheusMeterRegistry registry) {
        this(settings, entry, checks, registry, null);
    }

    /**
     * As {@link #HttpApi(HttpSettings, CompatEntry, List, PrometheusMeterRegistry)}, with the reference data
     * {@code GET /reference/...} reads.
     *
     * @param references the store's reference data (auto-commit reads); null when none (then every read is 404)
     */
    public HttpApi(HttpSettings settings, CompatEntry entry, List<ReadinessCheck> checks,
                   PrometheusMeterRegistry registry, ReferenceData references) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.references = references;
        this.entry = entry;
        this.registry = Objects.requireNonNull(registry, "registry");
        this.probe = new ReadinessProbe(Objects.requireNonNull(checks, "checks"), settings.readyTimeout());
        this.checkGauges = new CheckGauges(probe, checks.stream().map(ReadinessCheck::name).toList(), registry);
    }

    /**
     * The HTTP side of a {@link MsgExchange}: its compatibility entry (none in a shadow deployment), its store's
     * reference data for {@code GET /reference/...}, the checks
     * {@link StoreCheck}, {@link MailboxCheck} and {@link WatermarkCheck} (budget: {@code max-commit-delay} plus
     * {@link #watermarkMargin}), any {@code extraChecks} (the broker's), and its meter registry.
     *
     * @throws IllegalArgumentException when the exchange's registry is not a {@link PrometheusMeterRegistry}
     */
    public static HttpApi forExchange(MsgExchange exchange, ReadinessCheck... extraChecks) {
        Objects.requireNonNull(exchange, "exchange");
        if (!(exchange.meterRegistry() instanceof PrometheusMeterRegistry prometheus)) {
            throw new IllegalArgumentException("/metrics needs a PrometheusMeterRegistry, the exchange has a "
                    + exchange.meterRegistry().getClass().getSimpleName() + ": build it with"
                    + " MsgExchange.builder().meterRegistry(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))");
        }
        var config = exchange.config();
        var settings = new HttpSettings(config.http().host(), config.http().port(), config.http().token(),
                config.http().maxBodyBytes(), config.http().readyTimeout());
        var checks = new ArrayList<ReadinessCheck>();
        checks.add(new StoreCheck(exchange.store()));
        checks.add(new MailboxCheck(exchange.mailbox()));
        checks.add(WatermarkCheck.forMaxCommitDelay(exchange.store(), exchange.clock(),
                config.inbox().maxCommitDelay(), watermarkMargin(config.pollInterval())));
        if (config.kafka().sink() != null) {
            checks.add(new BrokerCheck(new io.msgx.adapter.kafka.KafkaClusterProbe(config.kafka().sink()),
                    HttpSettings.DEFAULT_READY_TIMEOUT.minusMillis(200)));
        }
        checks.addAll(List.of(extraChecks));
        var api = new HttpApi(settings, exchange.compatEntry(), checks, prometheus, exchange.store().referenceData());
        api.console = new Console(exchange, settings.token());
        api.head = exchange::fifoHead;
        api.liveness = exchange::liveness;
        return api;
    }

    /** Slack on top of {@code max-commit-delay} before a gap counts as stuck: three poll rounds, at least 30 s. */
    public static Duration watermarkMargin(Duration pollInterval) {
        var rounds = pollInterval.multipliedBy(3);
        return rounds.compareTo(Duration.ofSeconds(30)) > 0 ? rounds : Duration.ofSeconds(30);
    }

    /**
     * Bind and start serving.
     *
     * @throws UncheckedIOException when the address cannot be bound (the port is taken: change
     *                              {@value HttpSettings#PORT_KEY})
     * @throws IllegalStateException when started before, or after a stop
     */
    public synchronized HttpApi start() {
        if (server != null || stopped) {
            throw new IllegalStateException(stopped ? "HttpApi stopped: it does not restart; build a new one"
                    : "HttpApi started already on port " + port());
        }
        HttpServer created;
        try {
            created = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot listen on " + settings.host() + ":" + settings.port() + " ("
                    + e.getMessage() + "); free the port or set " + HttpSettings.PORT_KEY + " (0 picks a free one)", e);
        }
        var counter = new AtomicInteger();
        executor = Executors.newFixedThreadPool(THREADS, runnable -> {
            var thread = new Thread(runnable, "msgx-http-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        created.setExecutor(executor);
        var endpoints = List.of(
                new CompatEntryEndpoint(entry, settings.token(), settings.maxBodyBytes()),
                new LivenessEndpoint(liveness),
                new ReadinessEndpoint(probe, head),
                new MetricsEndpoint(registry),
                new ReferenceEndpoint(references, settings.token()));
        for (var endpoint : endpoints) {
            created.createContext(endpoint.path(), endpoint).getFilters().add(inFlight);
        }
        if (console != null) {
            created.createContext(Console.PREFIX, console).getFilters().add(inFlight);
        }
        created.createContext("/", new Endpoint.NotFound()).getFilters().add(inFlight);
        created.start();
        server = created;
        checkGauges.start();
        LOG.info("HTTP side listening on {}:{} ({}; compatibility entry {})", settings.host(), port(), settings,
                entry == null ? "not wired" : settings.entryEnabled() ? "enabled" : "disabled: no " + HttpSettings.TOKEN_KEY);
        return this;
    }

    /** The port listened on (the one picked when configured as 0). */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("HttpApi is not started: call start() first");
        }
        return server.getAddress().getPort();
    }

    /**
     * Refuse new requests (503), wait up to {@code grace} for those running, then close the listener and the
     * threads. Idempotent.
     */
    public synchronized void stop(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        if (stopped) {
            return;
        }
        stopped = true;
        checkGauges.close();
        if (console != null) {
            console.close();
        }
        if (server == null) {
            probe.close();
            return;
        }
        long deadline = System.nanoTime() + Math.max(0, grace.toNanos());
        try {
            if (!inFlight.drain(grace)) {
                LOG.warn("HTTP side: requests still running after the grace of {}; closing anyway", grace);
            }
            server.stop(0);
            executor.shutdown();
            if (!executor.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.stop(0);
            executor.shutdownNow();
        } finally {
            probe.close();
        }
        LOG.info("HTTP side stopped");
    }

    /** {@link #stop(Duration)} with {@link #DEFAULT_GRACE}. */
    @Override
    public void close() {
        stop(DEFAULT_GRACE);
    }
}
