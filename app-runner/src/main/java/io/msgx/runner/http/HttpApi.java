package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.pump.FifoHead;
import io.msgx.runner.config.Keys;
import io.msgx.runner.console.Console;
import io.msgx.runner.embed.MsgExchange;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The runner's HTTP side on Jetty ({@link JettyServer}: timeouts, limits, HTTPS), every request checked by one
 * {@link AccessGate} (credentials per role and client, D-145):
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

    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    private final HttpSettings settings;
    private final CompatEntry entry;
    private final ReadinessProbe probe;
    private final PrometheusMeterRegistry registry;
    private final ReferenceData references;
    /** What {@code /health/live} answers; always UP unless built {@link #forExchange} (then the exchange's loops). */
    private java.util.function.Supplier<io.msgx.runner.jobs.LivenessReport> liveness = io.msgx.runner.jobs.LivenessReport::alive;
    /** The operations console under {@value Console#PREFIX}; only a runner built {@link #forExchange} has one. */
    private Console console;
    /** The FIFO head shown in {@code /health/ready}'s body; none when the API is built without an exchange. */
    private Supplier<Optional<FifoHead>> head = Optional::empty;

    /** The checks' answers as gauges, probed in the background while the server runs. */
    private final CheckGauges checkGauges;

    private final HttpRoutes routes = new HttpRoutes();
    private final AccessGate gate;
    private Server server;
    private int boundPort;
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
        this(settings, entry, checks, registry, references, Clock.systemUTC());
    }

    /** As the public constructor, with the gate's clock (the exchange's) given. */
    private HttpApi(HttpSettings settings, CompatEntry entry, List<ReadinessCheck> checks,
                    PrometheusMeterRegistry registry, ReferenceData references, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.references = references;
        this.entry = entry;
        this.registry = Objects.requireNonNull(registry, "registry");
        this.probe = new ReadinessProbe(Objects.requireNonNull(checks, "checks"), settings.readyTimeout());
        this.checkGauges = new CheckGauges(probe, checks.stream().map(ReadinessCheck::name).toList(), registry);
        this.gate = new AccessGate(new CredentialSource(settings.credentialsFile(), settings.token(), clock), clock,
                settings.maxFailedAttempts());
    }

    /**
     * The HTTP side of a {@link MsgExchange}: its compatibility entry (none in a shadow deployment), its store's
     * reference data for {@code GET /reference/...}, the checks
     * {@link ReadCheck} (the store, the mailbox) and {@link WatermarkCheck} (budget: {@code max-commit-delay} plus
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
        var settings = config.http();
        var checks = new ArrayList<ReadinessCheck>();
        checks.add(ReadCheck.store(exchange.store()));
        checks.add(ReadCheck.mailbox(exchange.mailbox()));
        checks.add(WatermarkCheck.forMaxCommitDelay(exchange.store(), exchange.clock(),
                config.inbox().maxCommitDelay(), watermarkMargin(config.pollInterval())));
        if (config.kafka().sink() != null) {
            checks.add(new BrokerCheck(new io.msgx.adapter.kafka.KafkaClusterProbe(config.kafka().sink()),
                    HttpSettings.DEFAULT_READY_TIMEOUT.minusMillis(200)));
        }
        checks.addAll(List.of(extraChecks));
        var api = new HttpApi(settings, exchange.compatEntry(), checks, prometheus, exchange.store().referenceData(),
                exchange.clock());
        api.console = new Console(exchange, api.gate);
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
     *                              {@value Keys#HTTP_PORT})
     * @throws IllegalStateException when started before, or after a stop
     */
    public synchronized HttpApi start() {
        if (server != null || stopped) {
            throw new IllegalStateException(stopped ? "HttpApi stopped: it does not restart; build a new one"
                    : "HttpApi started already on port " + port());
        }
        routes.route("/", new Endpoint.NotFound());
        for (var endpoint : List.of(
                new CompatEntryEndpoint(entry, gate, settings.maxBodyBytes()),
                new LivenessEndpoint(liveness, gate),
                new ReadinessEndpoint(probe, head, gate),
                new MetricsEndpoint(registry, gate, settings.metricsOpen()),
                new ReferenceEndpoint(references, gate))) {
            routes.route(endpoint.path(), endpoint);
        }
        if (console != null) {
            routes.route(Console.PREFIX, console);
        }
        var created = JettyServer.create(settings, routes);
        try {
            created.start();
        } catch (Exception e) {
            stopQuietly(created);
            throw new UncheckedIOException("Cannot listen on " + settings.host() + ":" + settings.port() + " ("
                    + e.getMessage() + "); free the port or set " + Keys.HTTP_PORT + " (0 picks a free one)",
                    e instanceof IOException io ? io : new IOException(e));
        }
        server = created;
        boundPort = ((ServerConnector) created.getConnectors()[0]).getLocalPort();
        checkGauges.start();
        LOG.info("HTTP side listening on {}://{}:{} ({}; {}; compatibility entry {})", settings.tls() == null ? "http"
                : "https", settings.host(), port(), settings, gate, entry == null ? "not wired" : "wired");
        return this;
    }

    /** The port listened on (the one picked when configured as 0). */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("HttpApi is not started: call start() first");
        }
        return boundPort;
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
        try {
            if (!routes.drain(grace)) {
                LOG.warn("HTTP side: requests still running after the grace of {}; closing anyway", grace);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopQuietly(server);
            probe.close();
        }
        LOG.info("HTTP side stopped");
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("HTTP side: the server did not stop cleanly: {}", e.toString());
        }
    }

    /** {@link #stop(Duration)} with {@link #DEFAULT_GRACE}. */
    @Override
    public void close() {
        stop(DEFAULT_GRACE);
    }
}
