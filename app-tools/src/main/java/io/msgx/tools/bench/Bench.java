package io.msgx.tools.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTopics;
import io.msgx.runner.config.JdbcUrlMask;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.metrics.FlightCacheMeters;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The bench, start to end, against the configured PostgreSQL store, MySQL mailbox and Kafka:
 * <ol>
 *   <li>refuse ground that holds data unless {@code reset} (then wipe it);</li>
 *   <li>digest the small backlog: fill the mailbox (untimed), start the pipeline, time until every message is
 *       terminal and until the outbox is drained; stop;</li>
 *   <li>wipe, and digest the full backlog N the same way; then, with the pipeline running and idle, the live load
 *       and its latencies; stop;</li>
 *   <li>the baselines: bare single-connection commits/s, and the raw producer with the sink's settings sending as
 *       many records of the outbox's own shape as the full digest delivered;</li>
 *   <li>the report: absolute figures, ratios, targets, memory, machine and parameters.</li>
 * </ol>
 * The data of the last digest is left in place for inspection; the next run needs {@code --reset}.
 */
public final class Bench {

    /** Thrown when the ground holds data and no reset was asked for: nothing was changed. */
    public static final class RefusedException extends RuntimeException {
        RefusedException(String message) {
            super(message);
        }
    }

    private static final Duration POLL = Duration.ofMillis(100);
    private static final int SAMPLE_SIZE = 5_000;

    private final RunnerConfig config;
    private final BenchParameters parameters;
    private final Clock clock;
    private final PrintWriter progress;
    private final KafkaSinkSettings sink;
    private final MailboxFiller filler;
    private final List<String> notes = new ArrayList<>();

    public Bench(RunnerConfig config, BenchParameters parameters, Clock clock, PrintWriter progress) {
        this.config = Objects.requireNonNull(config, "config");
        this.parameters = Objects.requireNonNull(parameters, "parameters");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.progress = Objects.requireNonNull(progress, "progress");
        this.sink = config.kafka().sink();
        if (sink == null) {
            throw new IllegalArgumentException("msgx.kafka.bootstrap-servers must be set: the bench measures delivery "
                    + "to Kafka");
        }
        if (config.mailbox().readOnly()) {
            throw new IllegalArgumentException("msgx.mailbox.read-only=true: the bench writes into the mailbox; run "
                    + "it against a mailbox of its own");
        }
        this.filler = new MailboxFiller(config.mailbox().schema().inbound(), parameters.rowsPerInsert());
    }

    public BenchReport run() throws Exception {
        var startedAt = clock.instant();
        try (var store = storePool(); var memory = new MemoryWatch();
             var statistics = StatisticsKeeper.forStore(store, config.store().schema())) {
            var schema = config.store().schema();
            if (statistics.active()) {
                say("PostgreSQL runs with autovacuum = off: every %d s the bench vacuums and analyzes the tables of "
                        + "schema %s that autovacuum would", StatisticsKeeper.PERIOD_MILLIS / 1000, schema);
            }
            var ground = new BenchGround(this::mailboxConnection, config.mailbox().schema(), store, schema);
            var contents = ground.inspect();
            if (contents.mailboxTablesCreated()) {
                say("created the mailbox tables %s and %s (they were missing)",
                        config.mailbox().schema().inbound().table(), config.mailbox().schema().outbound().table());
            }
            if (!contents.isEmpty()) {
                if (!parameters.reset()) {
                    throw new RefusedException("The bench fills and wipes the mailbox and the store, and they hold data: "
                            + ground.describe(contents) + ". Nothing was changed. Point the configuration at a mailbox "
                            + "database and a store schema of their own (e.g. msgx_bench), or rerun with --reset to "
                            + "DELETE all of it (the mailbox tables are truncated, schema " + schema
                            + " is dropped and migrated afresh).");
                }
                say("--reset: wiping %s", ground.describe(contents));
            }
            var machine = Machine.describe(version(store), mailboxVersion(), sink.bootstrapServers());
            var topics = KafkaTopics.ensure(sink, parameters.partitions(), (short) 1);
            if (!topics.created().isEmpty()) {
                say("created topics %s (%d partitions)", topics.created(), parameters.partitions());
            }

            say("digest 1/2: small backlog of %,d messages", parameters.smallBacklog());
            var small = digest(ground, store, parameters.smallBacklog(), false);
            say("digest 2/2: full backlog of %,d messages", parameters.messages());
            var full = digest(ground, store, parameters.messages(), true);

            say("dispatch alone: every event of the full digest made due again");
            var dispatch = dispatchAlone(store, schema);

            say("baseline: bare PostgreSQL commits for %d s", parameters.baselineSeconds());
            var commits = new CommitRateBaseline(store, schema).measure(Duration.ofSeconds(parameters.baselineSeconds()));
            say("  %,.0f commits/s", commits.commitsPerSecond());

            var sample = OutboxSample.read(store, schema, SAMPLE_SIZE);
            long records = Math.max(1, full.digest().eventsDelivered());
            say("baseline: raw producer, %,d records replayed from %,d outbox samples (mean %.0f chars), %d run(s)",
                    records, sample.events().size(), sample.meanPayloadBytes(), parameters.producerRuns());
            var producer = new ProducerBaseline(sink, parameters.partitions(), (short) 1);
            var runs = new ArrayList<ProducerBaseline.Result>();
            for (int run = 0; run < parameters.producerRuns(); run++) {
                runs.add(producer.measure(sample.events(), records, parameters.drainTimeout()));
                say("  %,.0f records/s acknowledged", runs.get(run).recordsPerSecond());
            }
            var produced = ProducerBaseline.median(runs);
            if (runs.size() > 1) {
                say("  median %,.0f records/s", produced.recordsPerSecond());
            }

            memory.close();
            var figures = new BenchReport.Memory(memory.peakHeapBytes(), MemoryWatch.maxHeapBytes(),
                    MemoryWatch.peakRssBytes(), memory.samples(), MemoryWatch.PERIOD_MILLIS);
            var commitFigures = new BenchReport.CommitBaseline(commits.commits(), commits.nanos() / 1e9,
                    commits.commitsPerSecond(), commits.synchronousCommit());
            var producerFigures = new BenchReport.ProducerFigures(produced.records(), produced.acknowledged(),
                    produced.failed(), produced.nanos() / 1e9, produced.recordsPerSecond(), sample.events().size(),
                    sample.meanPayloadBytes(), produced.msgTopic(), produced.schdTopic(), produced.firstFailure(),
                    runs.stream().map(ProducerBaseline.Result::recordsPerSecond).toList());
            var ratios = new BenchReport.Ratios(
                    ratio(full.digest().messagesPerSecond(), commits.commitsPerSecond()),
                    ratio(dispatch.eventsPerSecond(), produced.recordsPerSecond()),
                    ratio(full.digest().microsPerMessage(), small.digest().microsPerMessage()));
            var targets = targets(ratios, full.live(), figures);
            notes.add("the small digest runs first, in a fresh JVM: its figure includes JIT warm-up and connection "
                    + "set-up, which flatters the cost ratio at N");
            notes.add("intake drains a backlog in batches of msgx.pipeline.claim-batch (" + config.inbox().claimBatch()
                    + ") without waiting for msgx.pipeline.poll-interval (" + config.pollInterval() + ")");
            notes.add("dispatch alone: the bench re-arms delivered events with one UPDATE and vacuums the dead row "
                    + "versions that leaves before the clock starts; the dispatcher's own are vacuumed in the phase");
            if (statistics.active()) {
                notes.add("PostgreSQL runs with autovacuum = off; in its place the bench, every "
                        + StatisticsKeeper.PERIOD_MILLIS / 1000 + " s, vacuumed the store's tables with more than 50 "
                        + "+ 20 % dead rows and analyzed those of which more than 50 rows + 10 % had changed ("
                        + statistics.rounds() + " rounds), as autovacuum's defaults would");
            }
            long failedInAnyRun = runs.stream().mapToLong(ProducerBaseline.Result::failed).sum();
            if (failedInAnyRun > 0) {
                notes.add("producer baseline: " + failedInAnyRun + " record(s) failed over " + runs.size()
                        + " run(s), first: " + runs.stream().map(ProducerBaseline.Result::firstFailure)
                        .filter(Objects::nonNull).findFirst().orElse("(no reason given)"));
            }
            return new BenchReport(startedAt.toString(), clock.instant().toString(), machine, parameters,
                    pipelineSettings(), small.digest(), full.digest(), full.live(), dispatch, figures, commitFigures,
                    producerFigures, ratios, targets, List.copyOf(notes));
        }
    }

    private record DigestOutcome(BenchReport.Digest digest, BenchReport.Live live) {
    }

    private DigestOutcome digest(BenchGround ground, HikariDataSource store, long messages, boolean live)
            throws Exception {
        ground.wipe();
        var traffic = new SimulatedTraffic(parameters.seed(), LocalDate.now(clock.withZone(
                config.engine().operationDayRule().airportZone())), parameters.flightsPerDay());
        MailboxFiller.Filled filled;
        long lastId;
        try (var connection = mailboxConnection()) {
            long every = Math.max(50_000, messages / 10);
            filled = filler.fill(connection, traffic, messages, written -> {
                if (written % every == 0 && written < messages) {
                    say("  filled %,d", written);
                }
            });
            lastId = checkContiguous(connection, messages);
        }
        var fill = new BenchReport.Fill(filled.rows(), filled.bytes(), filled.nanos() / 1e9, filled.rowsPerSecond(),
                filled.days());
        say("  filled %,d messages (%d simulated days) in %.1f s: %,.0f rows/s", filled.rows(), filled.days(),
                fill.seconds(), fill.rowsPerSecond());

        var registry = new SimpleMeterRegistry();
        try (var exchange = MsgExchange.builder().config(config).clock(clock).meterRegistry(registry).build()) {
            exchange.migrate();
            long start = System.nanoTime();
            exchange.start();
            var messageQueries = exchange.store().messageQueries();
            long deadline = start + parameters.drainTimeout().toNanos();
            long lastReport = start;
            ProcStatesCount count;
            var last = new LastMessage(store, config.store().schema(), lastId);
            while (true) {
                // cheap: the last message's state by primary key; the full count only when it looks done
                if (last.isTerminal()) {
                    count = ProcStatesCount.of(messageQueries.backlog());
                    if (count.terminal() >= messages && count.open() == 0) {
                        break;
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    count = ProcStatesCount.of(messageQueries.backlog());
                    break;
                }
                if (System.nanoTime() - lastReport > 10_000_000_000L) {
                    lastReport = System.nanoTime();
                    say("  FIFO head at %,d of %,d, watermark %,d (%.0f s)", last.head(), messages,
                            exchange.store().inboxCursor().load().watermark(), (lastReport - start) / 1e9);
                }
                Thread.sleep(POLL.toMillis());
            }
            long terminalAt = System.nanoTime();
            boolean allTerminal = count.terminal() >= messages && count.open() == 0;
            if (!allTerminal) {
                notes.add("digest of " + messages + ": only " + count.terminal() + " messages terminal within "
                        + parameters.drainTimeout() + "; figures are over the time waited");
            }
            boolean drained = false;
            long pendingEvents = -1;
            while (System.nanoTime() - deadline < 0) {
                var delivery = exchange.store().outboxQueries().deliveryBacklog();
                pendingEvents = delivery.pending();
                if (delivery.pending() == 0) {
                    drained = true;
                    break;
                }
                Thread.sleep(POLL.toMillis());
            }
            long drainedAt = System.nanoTime();
            long delivered = (long) counter(registry, MicrometerPipelineMetrics.DELIVERED);
            long eventsDead = exchange.store().outboxQueries().deliveryBacklog().dead();
            if (!drained) {
                notes.add("digest of " + messages + ": outbox not drained within " + parameters.drainTimeout()
                        + " (" + pendingEvents + " pending)");
            }
            double toTerminal = (terminalAt - start) / 1e9;
            double toDrained = (drainedAt - start) / 1e9;
            var digest = new BenchReport.Digest(messages, fill, allTerminal, count.succeeded(), count.skipped(),
                    count.dead(), toTerminal, count.terminal() / toTerminal, toTerminal * 1e6 / Math.max(1, count.terminal()),
                    drained, delivered, eventsDead, toDrained, delivered / toDrained);
            say("  all terminal after %.1f s: %,.1f msg/s (%,.0f µs/msg); outbox drained after %.1f s: %,d events, "
                    + "%,.1f events/s", toTerminal, digest.messagesPerSecond(), digest.microsPerMessage(), toDrained,
                    delivered, digest.eventsPerSecond());
            long hits = (long) functionCounter(registry, FlightCacheMeters.HITS);
            long misses = (long) functionCounter(registry, FlightCacheMeters.MISSES);
            if (hits + misses > 0) {
                notes.add(String.format("digest of %d: the flight cache (msgx.pipeline.flight-cache-size %d) served "
                        + "%,d of the %,d flights the transactions needed (%.1f %%)", messages,
                        config.processing().flightCacheSize(), hits, hits + misses, 100.0 * hits / (hits + misses)));
            }
            var references = exchange.store().referenceData().countsByType();
            notes.add(String.format("digest of %d: the simulated days' reference data left %,d records of %d types in "
                    + "REF_MASTER (their DNLD, UPD, ADD and DEL messages are among the messages digested)", messages,
                    references.values().stream().mapToLong(Long::longValue).sum(), references.size()));
            BenchReport.Live liveFigures = null;
            if (live) {
                liveFigures = live(exchange, store, traffic, messages);
            }
            return new DigestOutcome(digest, liveFigures);
        }
    }

    /**
     * The dispatcher's own capacity: the digest's figure is bound by the pump (events are delivered as fast as they
     * are made), so every outbox row is made due again and a fresh pipeline, whose mailbox is fully processed,
     * delivers them all. Consumers would see each event twice, which the delivery contract allows.
     *
     * <p>The re-arm is the bench's own doing, not the pump's: one {@code UPDATE} of every row leaves a dead version
     * of each behind, pages full of them and no free space recorded, so the first confirmations extend the table and
     * the claims step over the dead entries of the status index (in {@code psql}: 75–128 ms a confirmation of 5,000
     * against ~30 ms once vacuumed). A backlog a broker outage leaves is rows the pump inserted, with no dead versions
     * of their own. So the re-arm's dead versions are vacuumed before the clock starts; those the dispatcher's
     * confirmations leave are vacuumed in the phase by the keeper, and count (D-46).
     */
    private BenchReport.Dispatch dispatchAlone(HikariDataSource store, String schema) throws Exception {
        int rearmed;
        try (var connection = store.getConnection(); var statement = connection.createStatement()) {
            rearmed = statement.executeUpdate("UPDATE " + schema + ".MSG_EVENT SET STATUS = 'PENDING', SENT_AT = NULL,"
                    + " ATTEMPTS = 0, NEXT_ATTEMPT_AT = NULL, LAST_ERROR = NULL WHERE STATUS = 'SENT'");
            long vacuumStart = System.nanoTime();
            statement.execute("VACUUM (ANALYZE) " + schema + ".MSG_EVENT");
            say("  %,d events re-armed; the re-arm's dead row versions vacuumed in %.1f s (not timed)", rearmed,
                    (System.nanoTime() - vacuumStart) / 1e9);
        }
        var registry = new SimpleMeterRegistry();
        try (var exchange = MsgExchange.builder().config(config).clock(clock).meterRegistry(registry).build()) {
            long start = System.nanoTime();
            exchange.start();
            long deadline = start + parameters.drainTimeout().toNanos();
            // The delivery counter until it reaches the re-armed count (the outbox every 5 s, in case an event went
            // DEAD), then the outbox: counting a backlog of a million rows takes PostgreSQL 0.2 s, and doing it every
            // 100 ms would keep one of the two cores busy measuring.
            for (int poll = 1; counter(registry, MicrometerPipelineMetrics.DELIVERED) < rearmed
                    && System.nanoTime() - deadline < 0; poll++) {
                if (poll % 50 == 0 && exchange.store().outboxQueries().deliveryBacklog().pending() == 0) {
                    break;
                }
                Thread.sleep(POLL.toMillis());
            }
            while (exchange.store().outboxQueries().deliveryBacklog().pending() > 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(POLL.toMillis());
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long delivered = (long) counter(registry, MicrometerPipelineMetrics.DELIVERED);
            say("  %,d events delivered in %.1f s: %,.0f events/s", delivered, seconds, delivered / seconds);
            return new BenchReport.Dispatch(rearmed, delivered, seconds, delivered / seconds);
        }
    }

    private BenchReport.Live live(MsgExchange exchange, HikariDataSource store, SimulatedTraffic traffic,
                                  long alreadyThere) throws Exception {
        say("live load: %.0f msg/s for %d s, pipeline running and idle", parameters.rate(), parameters.liveSeconds());
        Thread.sleep(1_000);
        var probe = new LatencyProbe(filler, clock);
        LatencyProbe.Fed fed;
        try (var connection = mailboxConnection()) {
            fed = probe.feed(connection, traffic, parameters.rate(), Duration.ofSeconds(parameters.liveSeconds()));
        }
        say("  fed %,d messages at %.1f msg/s; waiting for them to settle", fed.count(), fed.achievedRate());
        long expected = alreadyThere + fed.count();
        long deadline = System.nanoTime() + parameters.drainTimeout().toNanos();
        while (System.nanoTime() - deadline < 0) {
            var count = ProcStatesCount.of(exchange.store().messageQueries().backlog());
            if (count.terminal() >= expected && count.open() == 0
                    && exchange.store().outboxQueries().deliveryBacklog().pending() == 0) {
                break;
            }
            Thread.sleep(POLL.toMillis());
        }
        var matched = probe.match(store, config.store().schema(), fed);
        say("  commit → ack p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d matched)", matched.commitToAck().p50Millis(),
                matched.commitToAck().p99Millis(), matched.commitToAck().maxMillis(), matched.commitToAck().count());
        if (matched.notTerminal() > 0) {
            notes.add("live load: " + matched.notTerminal() + " message(s) not terminal within " + parameters.drainTimeout());
        }
        return new BenchReport.Live(fed.count(), parameters.rate(), fed.achievedRate(),
                "MSG_EVENT.SENT_AT (written by the dispatcher right after the broker's acks=all acknowledgement)",
                matched.commitToAck(), matched.commitToTerminal(), matched.withoutEvents(), matched.notTerminal());
    }

    /** A filled mailbox must have consecutive IDs 1..N, or intake would wait max-commit-delay at every gap. */
    private long checkContiguous(Connection connection, long messages) throws SQLException {
        var table = config.mailbox().schema().inbound();
        try (var statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT MIN(`" + table.idColumn() + "`), MAX(`" + table.idColumn()
                     + "`), COUNT(*) FROM `" + table.table() + "`")) {
            rows.next();
            long min = rows.getLong(1);
            long max = rows.getLong(2);
            long count = rows.getLong(3);
            if (count != messages || max - min + 1 != count || min != 1) {
                notes.add("mailbox IDs after the fill are " + min + ".." + max + " for " + count + " rows (expected 1.."
                        + messages + "): gaps stall intake up to msgx.pipeline.max-commit-delay each "
                        + "(innodb_autoinc_lock_mode?)");
                say("  WARNING: %s", notes.get(notes.size() - 1));
            }
            return max;
        }
    }

    private List<BenchReport.Target> targets(BenchReport.Ratios ratios, BenchReport.Live live, BenchReport.Memory memory) {
        var targets = new ArrayList<BenchReport.Target>();
        targets.add(new BenchReport.Target("digest ÷ bare commit rate", ">= 1.0", ratios.digestToBareCommit(),
                ratios.digestToBareCommit() >= 1.0));
        targets.add(new BenchReport.Target("dispatch ÷ raw producer", ">= 0.5", ratios.dispatchToRawProducer(),
                ratios.dispatchToRawProducer() >= 0.5));
        double p99 = live.commitToAck().p99Millis();
        targets.add(new BenchReport.Target("live p99 commit → ack (ms) at " + (long) parameters.rate() + " msg/s",
                "<= 500", p99, live.commitToAck().count() > 0 && p99 <= 500));
        double heapMib = memory.peakHeapBytes() / (1024.0 * 1024.0);
        targets.add(new BenchReport.Target("peak heap (MiB)", "<= 512", heapMib, heapMib <= 512));
        targets.add(new BenchReport.Target("cost at N ÷ cost at small backlog", "<= 1.2", ratios.costFullToSmall(),
                ratios.costFullToSmall() <= 1.2));
        return targets;
    }

    private Map<String, String> pipelineSettings() {
        var settings = new LinkedHashMap<>(config.describe());
        settings.put(Keys.STORE_POOL_SIZE, Integer.toString(config.store().poolSize()));
        settings.put(Keys.POLL_INTERVAL, config.pollInterval().toString());
        settings.put(Keys.GROUP_SIZE, Integer.toString(config.processing().groupSize()));
        settings.put(Keys.FLIGHT_CACHE_SIZE, Integer.toString(config.processing().flightCacheSize()));
        settings.put(Keys.DISPATCH_INTERVAL, config.dispatchInterval().toString());
        settings.put(Keys.DISPATCH_BATCH, Integer.toString(config.dispatch().notificationBatch()));
        settings.put(Keys.SCHD_FLUSH_LIMIT, Integer.toString(config.dispatch().flushLimit()));
        settings.put(Keys.KAFKA_LINGER, sink.linger().toString());
        return settings;
    }

    /** The state of the last filled message, read by primary key (cheap enough to poll every 100 ms). */
    private record LastMessage(HikariDataSource store, String schema, long id) {
        boolean isTerminal() throws SQLException {
            try (var connection = store.getConnection(); var query = connection.prepareStatement(
                    "SELECT state FROM \"" + schema + "\".proc_state WHERE msg_id = ?")) {
                query.setLong(1, id);
                try (var rows = query.executeQuery()) {
                    return rows.next() && List.of("SUCCEEDED", "SKIPPED", "DEAD").contains(rows.getString(1));
                }
            }
        }

        /** The FIFO head: the smallest open message (partial index), or -1 when none is open. */
        long head() throws SQLException {
            try (var connection = store.getConnection(); var statement = connection.createStatement();
                 var rows = statement.executeQuery("SELECT COALESCE(MIN(msg_id), -1) FROM \"" + schema
                         + "\".proc_state WHERE state IN ('PENDING', 'FAILED')")) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private record ProcStatesCount(long open, long succeeded, long skipped, long dead) {
        static ProcStatesCount of(io.msgx.pipeline.port.MessageQueries.Backlog backlog) {
            return new ProcStatesCount(backlog.pending() + backlog.failed(), backlog.succeeded(), backlog.skipped(),
                    backlog.dead());
        }

        long terminal() {
            return succeeded + skipped + dead;
        }
    }

    private static double counter(SimpleMeterRegistry registry, String name) {
        return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static double functionCounter(SimpleMeterRegistry registry, String name) {
        return registry.find(name).functionCounters().stream().mapToDouble(FunctionCounter::count).sum();
    }

    private static double ratio(double a, double b) {
        return b == 0 ? 0 : a / b;
    }

    private HikariDataSource storePool() {
        var hikari = new HikariConfig();
        hikari.setPoolName("msgx-bench-store");
        hikari.setJdbcUrl(config.store().url());
        hikari.setUsername(config.store().user());
        hikari.setPassword(config.store().password());
        hikari.setMaximumPoolSize(2);
        hikari.setMinimumIdle(0);
        hikari.setConnectionTimeout(10_000);
        return new HikariDataSource(hikari);
    }

    private Connection mailboxConnection() {
        try {
            return DriverManager.getConnection(config.mailbox().url(), config.mailbox().user(),
                    config.mailbox().password());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to the mailbox "
                    + JdbcUrlMask.mask(config.mailbox().url()) + ": "
                    + e.getMessage(), e);
        }
    }

    private String mailboxVersion() throws SQLException {
        try (var connection = mailboxConnection()) {
            var meta = connection.getMetaData();
            return meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion();
        }
    }

    private static String version(HikariDataSource store) throws SQLException {
        try (var connection = store.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("SHOW server_version")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private void say(String format, Object... args) {
        progress.printf("[bench] " + format + "%n", args);
        progress.flush();
    }
}
