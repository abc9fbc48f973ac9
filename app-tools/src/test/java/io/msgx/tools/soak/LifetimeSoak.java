package io.msgx.tools.soak;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.msgx.domain.flight.SisTime;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;
import io.msgx.tools.simulator.AirportDay;
import io.msgx.tools.simulator.AirportDaySimulator;
import io.msgx.tools.simulator.MailboxFeeder;
import io.msgx.tools.simulator.SimulationSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import javax.sql.DataSource;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;

/**
 * A lifetime of the airport on a fast clock (issue 33): the runner, wired as {@code run} wires it but with its jobs
 * stepped on a settable clock ({@link MsgExchange.Builder#steppedJobs()}), fed every simulated operation day the
 * airport-day simulator's traffic, the AODB answering its schedule requests, and a flight of a week ago coming back
 * every day. Time moves in steps of {@link Settings#step()}: at each step the messages written by then reach the
 * mailbox, every job that is due runs (a job whose period is shorter than the step runs once a step), and the AODB
 * answers what was asked. After each day it checks what a site would check and records the figures of the day.
 */
final class LifetimeSoak {

    private static final Logger log = LoggerFactory.getLogger(LifetimeSoak.class);
    static final ZoneId AIRPORT = ZoneId.of("Asia/Shanghai");

    /**
     * @param days        simulated operation days (at most)
     * @param flights     operated flights a day
     * @param step        how far the clock moves at each step
     * @param wallBudget  the soak stops after the day that ends past this much real time (the long form's bound)
     * @param firstDay    the first operation day
     * @param comeBackAge a flight of the day this many days ago comes back (an ADFT) every day from then on
     */
    record Settings(int days, int flights, Duration step, Duration wallBudget, LocalDate firstDay, int comeBackAge) {
    }

    /**
     * What one simulated day came to. {@code digestMicrosPerMessage} is the real time the pump's runs took that day per
     * message processed; {@code jobMillis} the real time each job took that day.
     */
    record Day(int index, LocalDate date, int fed, long processed, double digestMicrosPerMessage, long heapMiB,
               Map<String, Long> rows, List<String> problems, Duration wall, Map<String, Long> jobMillis) {
    }

    private final Settings settings;
    private final Map<String, String> keys;
    private final Mailbox mailbox;
    private final DataSource store;
    private final Callable<Connection> aodb;
    private final Map<LocalDate, AirportDay> days = new HashMap<>();
    private final AirportDaySimulator simulator = new AirportDaySimulator();
    private final SisMessages sis = new SisMessages();

    LifetimeSoak(Settings settings, Map<String, String> keys, Mailbox mailbox, DataSource store,
                 Callable<Connection> aodb) {
        this.settings = settings;
        this.keys = keys;
        this.mailbox = mailbox;
        this.store = store;
        this.aodb = aodb;
    }

    /**
     * The runner's keys for a lifetime in days: the retention keys scaled so that every table reaches its plateau
     * within a few weeks (the plateau is set by them; the defaults would take a year), the replay channel on, a daily
     * schedule request at 22:00.
     */
    static Map<String, String> lifetimeKeys() {
        var keys = new LinkedHashMap<String, String>();
        keys.put("msgx.airport.zone", AIRPORT.getId());
        keys.put("msgx.pipeline.replay-channel", "true");
        keys.put("msgx.pipeline.raw-retention", "2d");
        keys.put("msgx.pipeline.dedup-memory", "4d");
        keys.put("msgx.pipeline.archive-after", "1d");
        keys.put("msgx.retention.processing-history", "5d");
        keys.put("msgx.pipeline.event-retention", "2d");
        keys.put("msgx.retention.flight-history", "6d");
        keys.put("msgx.retention.schedule-log", "4d");
        keys.put("msgx.retention.closed-requests", "4d");
        keys.put("msgx.requests.daily-schedule-at", "22:00");
        return keys;
    }

    List<Day> run(Consumer<Day> afterEachDay) throws Exception {
        var start = settings.firstDay().atStartOfDay(AIRPORT).toInstant();
        var clock = new SettableClock(start);
        var lastFed = new LastFed();
        var aodbSide = new AodbCounterpart(aodb, mailbox, this::day, lastFed::seqn, AIRPORT, Duration.ofDays(3));
        var feeds = new ArrayList<Feed>();
        var report = new ArrayList<Day>();
        long wallStart = System.nanoTime();
        try (var exchange = MsgExchange.builder().config(keys).clock(clock).steppedJobs().build();
             var ledger = new TopicLedger(keys.get("msgx.kafka.topic.msg"), keys.get("msgx.kafka.topic.schd"))) {
            exchange.migrate();
            exchange.start();
            awaitActive(exchange);
            var registry = exchange.meterRegistry();
            var digestBefore = digest(registry, exchange);
            for (int index = 0; index < settings.days(); index++) {
                long dayStart = System.nanoTime();
                var date = settings.firstDay().plusDays(index);
                feeds.add(new Feed(day(date), new MailboxFeeder(mailbox, AIRPORT)));
                var comeBack = comeBack(date);
                int fed = 0;
                var end = date.plusDays(1).atStartOfDay(AIRPORT).toInstant();
                while (clock.instant().isBefore(end)) {
                    clock.tick(settings.step());
                    var now = clock.instant();
                    for (var feed : feeds) {
                        fed += feed.feedUntil(now, lastFed);
                    }
                    if (comeBack != null && !now.isBefore(comeBack.at()) && !lastFed.isScheduleAddition()) {
                        // In the AODB's SEQN stream: a SEQN far from it would look like a restarted sequence (D-86).
                        mailbox.appendInbound(sis.withSeqn(comeBack.xml(), lastFed.seqn()), now);
                        comeBack = null;
                        fed++;
                    }
                    exchange.runDueJobs();
                    if (aodbSide.answerRequests(now) > 0) {
                        exchange.runDueJobs();
                    }
                }
                feeds.removeIf(Feed::done);
                aodbSide.purge(clock.instant());
                var digestAfter = digest(registry, exchange);
                ledger.catchUp();
                var problems = new DayCheck(store, aodb, ledger).problems();
                var figures = new Day(index + 1, date, fed, digestAfter.count() - digestBefore.count(),
                        perMessageMicros(digestBefore, digestAfter), heapMiB(), rowCounts(),
                        problems, Duration.ofNanos(System.nanoTime() - dayStart), jobShares(digestBefore, digestAfter));
                digestBefore = digestAfter;
                report.add(figures);
                afterEachDay.accept(figures);
                if (Duration.ofNanos(System.nanoTime() - wallStart).compareTo(settings.wallBudget()) > 0) {
                    log.warn("Soak: the wall-clock budget {} is spent after {} simulated days", settings.wallBudget(),
                            index + 1);
                    break;
                }
            }
            if (!ledger.versionsBack().isEmpty()) {
                report.add(new Day(0, null, 0, 0, 0, 0, Map.of(), ledger.versionsBack(), Duration.ZERO, Map.of()));
            }
            log.info("Soak: {} requests answered by the AODB side, {} records read from the flight topics",
                    aodbSide.answered(), ledger.records());
        }
        return report;
    }

    private AirportDay day(LocalDate date) {
        return days.computeIfAbsent(date, d -> simulator.generate(SimulationSettings.of(d.toEpochDay(),
                settings.flights(), d)));
    }

    /** A flight comes back to the current state: an ADFT for a flight of {@code comeBackAge} days ago, at noon. */
    private record ComeBack(Instant at, String xml) {
    }

    private ComeBack comeBack(LocalDate date) {
        var then = date.minusDays(settings.comeBackAge());
        if (then.isBefore(settings.firstDay())) {
            return null;
        }
        var flid = day(then).expectations().scheduledFlids().stream()
                .filter(f -> !day(then).expectations().deletedFlids().contains(f)).findFirst().orElseThrow();
        days.keySet().removeIf(d -> d.isBefore(then)); // nothing older is read again
        var sodt = SisTime.format(then.atTime(LocalTime.NOON));
        var xml = sis.adft(fltr(flid, patch("FLNO", "CB" + date.getDayOfYear(), "SODT", sodt)));
        return new ComeBack(date.atTime(LocalTime.NOON).atZone(AIRPORT).toInstant(), xml);
    }

    /**
     * The last message the simulated AODB wrote: the soak's own messages (answers, flights coming back) take its
     * {@code SEQN}, as the AODB's next message would; their TYPE and STYP make their identity their own, except after
     * a schedule addition, when a flight coming back waits for the next message.
     */
    private static final class LastFed {
        private static final java.util.regex.Pattern SEQN = java.util.regex.Pattern.compile("<SEQN>(\\d+)</SEQN>");
        private long seqn = 1;
        private boolean scheduleAddition;

        void was(String xml) {
            var matcher = SEQN.matcher(xml);
            if (matcher.find()) {
                seqn = Long.parseLong(matcher.group(1));
            }
            scheduleAddition = xml.contains("<TYPE>SCHD</TYPE>") && xml.contains("<STYP>ADFT</STYP>");
        }

        long seqn() {
            return seqn;
        }

        boolean isScheduleAddition() {
            return scheduleAddition;
        }
    }

    /** A day's messages written into the mailbox as the clock passes their time. */
    private static final class Feed {
        private final MailboxFeeder.Feed feed;
        private final List<Instant> times;
        private int next;

        Feed(AirportDay day, MailboxFeeder feeder) {
            this.feed = feeder.open(day);
            this.times = day.messages().stream().map(m -> m.writtenAt().atZone(AIRPORT).toInstant()).toList();
        }

        int feedUntil(Instant now, LastFed lastFed) {
            int due = 0;
            while (next + due < times.size() && !times.get(next + due).isAfter(now)) {
                due++;
            }
            if (due > 0) {
                var written = feed.feedNext(due);
                lastFed.was(written.get(written.size() - 1).message().xml());
                next += due;
            }
            return due;
        }

        boolean done() {
            return next == times.size();
        }
    }

    private static void awaitActive(MsgExchange exchange) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!exchange.isActive()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the soak's exchange did not become active within 30 s");
            }
            Thread.sleep(20);
        }
    }

    /**
     * The messages processed so far (every outcome, from the pipeline's timer) and the real time each job took: the
     * pipeline's own timers read the clock, which stands still while a step runs.
     */
    private record Digest(long count, Map<String, Duration> busy) {
    }

    private static Digest digest(MeterRegistry registry, MsgExchange exchange) {
        long count = 0;
        for (Timer timer : registry.find(MicrometerPipelineMetrics.MESSAGE_PROCESSING).timers()) {
            count += timer.count();
        }
        return new Digest(count, exchange.jobBusyTimes());
    }

    private static double perMessageMicros(Digest before, Digest after) {
        long messages = after.count() - before.count();
        var pump = after.busy().getOrDefault("pump", Duration.ZERO).minus(before.busy().getOrDefault("pump",
                Duration.ZERO));
        return messages == 0 ? 0 : pump.toNanos() / 1_000.0 / messages;
    }

    private static Map<String, Long> jobShares(Digest before, Digest after) {
        var shares = new LinkedHashMap<String, Long>();
        after.busy().forEach((job, time) -> shares.put(job,
                time.minus(before.busy().getOrDefault(job, Duration.ZERO)).toMillis()));
        return shares;
    }

    private static long heapMiB() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }

    /** Every table of the store with its rows, and the mailbox's two tables. */
    private Map<String, Long> rowCounts() throws Exception {
        var counts = new TreeMap<String, Long>();
        try (var connection = store.getConnection(); var statement = connection.createStatement()) {
            var tables = new ArrayList<String>();
            try (var rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = current_schema() AND table_name <> 'flyway_schema_history'")) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
            for (var table : tables) {
                try (var rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.next();
                    counts.put(table.toUpperCase(java.util.Locale.ROOT), rows.getLong(1));
                }
            }
        }
        try (var connection = aodb.call(); var statement = connection.createStatement()) {
            for (var table : List.of("CMINMSGS", "COUTMSGS")) {
                try (var rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.next();
                    counts.put("mailbox " + table, rows.getLong(1));
                }
            }
        }
        return counts;
    }
}
