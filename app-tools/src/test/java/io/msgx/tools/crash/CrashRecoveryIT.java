package io.msgx.tools.crash;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.BuiltRunner;
import io.msgx.runner.RealServices;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.tools.simulator.AirportDay;
import io.msgx.tools.simulator.AirportDaySimulator;
import io.msgx.tools.simulator.MailboxFeeder;
import io.msgx.tools.simulator.SimulatedMessage;
import io.msgx.tools.simulator.SimulationSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner killed with SIGKILL at random moments, over and over, while a simulated airport day is written into
 * its mailbox (issue 10, crash): after the last restart has drained everything, the result must be exactly that of
 * an uninterrupted run on the same input.
 *
 * <ul>
 *   <li><b>Reference run</b>: the same pipeline ({@link MsgExchange}, the runner's own wiring and configuration) in
 *       this JVM, on its own PostgreSQL schema and MariaDB mailbox, the whole day written first, never
 *       interrupted.</li>
 *   <li><b>Crash run</b>: {@code java -jar msgexchange.jar run} as a separate process on a second schema and mailbox,
 *       publishing to a real Kafka broker. The day is written into the mailbox a row at a time from another thread,
 *       a share per restart, the rest of a share also while the runner is down. The runner is killed
 *       {@link CrashSettings#kills()} times, restarted each time, then left to finish. Each kill is aimed
 *       ({@link KillAim}, every aim once in each run of six, shuffled by a seeded {@link Random}): at start-up, at
 *       intake, inside a processing transaction, at dispatch, at backfill or at any moment; the test waits until the
 *       databases show the runner at that work, adds a random jitter and sends SIGKILL. Where each kill landed
 *       ({@link KillPhase}) is read from the databases and written to
 *       {@code target/crash-recovery/<schema>/summary.txt} (and, kill by kill, {@code kills.txt}).</li>
 * </ul>
 *
 * Then, against the reference: no mailbox ID lost and each ended the same way; every flight's main row and lists
 * (so its {@code STATE_VERSION}) the same; changes committed in mailbox-ID order (FIFO), per flight the same
 * notifications in the same order; the {@code msg} topic carries all of them, the last copy of each in that order
 * (earlier copies are at-least-once repeats); the {@code schd} topic, compacted, is {@code FLIGHT_SCHD}; every row
 * is marked processed in the mailbox.
 *
 * <p>Short by default (6 kills, 25 flights); {@link CrashSettings} says how to run the long form. It lives in app-tools
 * for the simulator (D-89); the jar it kills is the production one, app-runner's ({@code msgx.runner.jar}).
 */
class CrashRecoveryIT {

    private static final ZoneId AIRPORT = ZoneId.of("Asia/Shanghai");
    private static final LocalDate OPERATION_DAY = LocalDate.of(2024, 3, 11);

    @RegisterExtension
    final RealServices crash = new RealServices();

    @RegisterExtension
    final RealServices reference = new RealServices();

    private final CrashSettings settings = CrashSettings.fromSystemProperties();
    private final List<RunnerProcess> runners = new ArrayList<>();
    private TrickleFeeder feeder;

    @AfterEach
    void killLeftovers() throws InterruptedException {
        if (feeder != null) {
            feeder.close();
        }
        for (var runner : runners) {
            if (runner.isAlive()) {
                runner.kill();
            }
        }
    }

    @Test
    void killed_at_random_moments_and_restarted_the_runner_ends_exactly_where_an_uninterrupted_run_ends()
            throws Exception {
        long started = System.nanoTime();
        var day = new AirportDaySimulator().generate(SimulationSettings.of(settings.seed(), settings.flights(),
                OPERATION_DAY));
        int total = day.messages().size();

        var referenceIds = referenceRun(day);
        var expected = StoreContents.read(reference.storeDataSource());
        long referenceDone = System.nanoTime();

        var msgTopic = KafkaTestBroker.uniqueTopic("crash-msg");
        var schdTopic = KafkaTestBroker.uniqueTopic("crash-schd");
        var referenceTopic = KafkaTestBroker.uniqueTopic("crash-reference");
        KafkaTestBroker.createTopics(3, msgTopic);
        KafkaTestBroker.createCompactedTopics(3, schdTopic, referenceTopic);
        var logs = Files.createDirectories(Path.of("target", "crash-recovery", crash.postgres.schema()));
        var applicationName = "msgx-crash-" + crash.postgres.schema();
        var config = configFile(logs, applicationName, msgTopic, schdTopic, referenceTopic);
        var probe = new WorkInHand(crash.storeDataSource(), crash::aodbConnection, applicationName);

        feeder = new TrickleFeeder(new MailboxFeeder(crash.mailbox(), AIRPORT).open(day));
        var kills = killRepeatedly(config, logs, probe, total);
        long killsDone = System.nanoTime();

        feeder.releaseAll();
        feeder.awaitReleased(Duration.ofMinutes(5));
        var last = start(config, logs, "final");
        assertThat(last.awaitActive(Duration.ofSeconds(60))).as("the last restart becomes active; see " + last.log())
                .isTrue();
        try {
            await("the last restart drains intake, processing, dispatch and backfill", drainTimeout(total),
                    () -> drained(total));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; left: " + probe.read() + "; see " + last.log(), e);
        }
        assertThat(last.stop(Duration.ofSeconds(30))).as("SIGTERM stops the last runner").isTrue();
        long drainDone = System.nanoTime();

        var fed = feeder.fed();
        var actual = StoreContents.read(crash.storeDataSource());
        var msg = TopicContents.of(KafkaTestBroker.readAll(msgTopic, Duration.ofSeconds(60)));
        var schd = TopicContents.of(KafkaTestBroker.readAll(schdTopic, Duration.ofSeconds(60)));

        var durations = new LinkedHashMap<String, Long>();
        durations.put("reference run", referenceDone - started);
        durations.put("kills", killsDone - referenceDone);
        durations.put("final drain", drainDone - killsDone);
        durations.put("total", System.nanoTime() - started);
        var summary = summary(day, kills, actual, msg, schd, durations);
        Files.writeString(logs.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
        System.out.println(summary);

        assertThat(kills).as("every kill was a SIGKILL of the runner's own JVM (exit status 137)")
                .hasSize(settings.kills()).allSatisfy(k -> assertThat(k.exitStatus()).isEqualTo(137));
        assertThat(kills).as("kills that caught work in hand (else this run proved little)")
                .anySatisfy(k -> assertThat(k.phases()).contains(KillPhase.PROCESSING))
                .anySatisfy(k -> assertThat(k.phases()).contains(KillPhase.INTAKE));

        var ids = fed.stream().map(MailboxFeeder.FedMessage::mailboxId).toList();
        assertThat(ids).as("the same input gets the same mailbox IDs in both mailboxes").isEqualTo(referenceIds);
        assertNoMessageLost(fed, actual);
        assertThat(differences(actual.outcomes(), expected.outcomes()))
                .as("messages that ended otherwise than in the uninterrupted run").isEmpty();
        assertThat(actual.countPerState()).isEqualTo(expected.countPerState());

        assertThat(actual.flightsDifferingFrom(expected)).as("flights whose state differs from the uninterrupted run")
                .isEmpty();
        assertThat(actual.versions()).isEqualTo(expected.versions());
        assertFifo(actual, expected);
        assertMsgTopicCarriesEveryNotificationInOrder(actual, msg);
        assertSchdTopicIsFlightSchd(actual, expected, schd);
        assertEveryRowMarkedInMailbox(total);
    }

    /** The whole day written first, then the pipeline run in this JVM until every message ended; its IDs. */
    private List<Long> referenceRun(AirportDay day) throws Exception {
        var fed = new MailboxFeeder(reference.mailbox(), AIRPORT).feedAll(day);
        var keys = new LinkedHashMap<>(runnerKeys(reference));
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.start();
            await("the reference run ends every message", drainTimeout(fed.size()), () -> {
                var status = exchange.status();
                return status.watermark() == fed.get(fed.size() - 1).mailboxId() && status.backlog() == 0;
            });
        }
        return fed.stream().map(MailboxFeeder.FedMessage::mailboxId).toList();
    }

    /**
     * {@code kills} times: start the runner, let the next share of the day be written while it runs, wait until it
     * is at the work the kill is aimed at (bounded), a random jitter more, SIGKILL; record where the kill landed.
     */
    private List<WorkInHand.AtKill> killRepeatedly(Path config, Path logs, WorkInHand probe, int total)
            throws Exception {
        var random = new Random(settings.seed());
        int share = (int) Math.ceil((double) total / settings.kills());
        var aims = KillAim.deal(settings.kills(), random);
        var kills = new ArrayList<WorkInHand.AtKill>();
        for (int kill = 1; kill <= settings.kills(); kill++) {
            var aim = aims.get(kill - 1);
            var runner = start(config, logs, "run-" + kill);
            long from = System.nanoTime();
            boolean reached = true;
            if (aim == KillAim.STARTUP) {
                feeder.release(share);
                Thread.sleep(200 + random.nextInt(3_000)); // a random moment is the point here, not a timer
            } else {
                assertThat(runner.awaitActive(Duration.ofSeconds(60))).as("restart %d becomes active; see %s", kill,
                        runner.log()).isTrue();
                feeder.release(share);
                reached = awaitAim(aim, probe, random);
                Thread.sleep(random.nextInt(aim == KillAim.PROCESSING ? 20 : 150));
            }
            boolean active = runner.isActive();
            boolean writing = feeder.isWriting();
            var transactions = probe.transactions();
            int status = runner.kill();
            long waited = Duration.ofNanos(System.nanoTime() - from).toMillis();
            var after = probe.read();
            var atKill = new WorkInHand.AtKill(kill, aim, reached, waited, runner.pid(), status,
                    WorkInHand.phases(active, writing, transactions, after), after);
            kills.add(atKill);
            Files.writeString(logs.resolve("kills.txt"), atKill.line() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return kills;
    }

    /**
     * Poll until the runner is at the work {@code aim} names and has made progress at it since it became active;
     * false if it was not within 20 s.
     */
    private boolean awaitAim(KillAim aim, WorkInHand probe, Random random) throws Exception {
        if (aim == KillAim.ANY_MOMENT) {
            Thread.sleep(random.nextInt(3_000));
            return true;
        }
        var atStart = probe.read();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        boolean warm = false;
        while (System.nanoTime() - deadline < 0) {
            boolean there;
            if (aim == KillAim.PROCESSING) {
                warm = warm || probe.read().ended() > atStart.ended();
                there = warm && probe.transactions().processing() > 0;
            } else {
                var now = probe.read();
                there = switch (aim) {
                    case INTAKE -> feeder.isWriting() && now.watermark() > atStart.watermark();
                    case DISPATCH -> now.sent() > atStart.sent() && now.undelivered() > 0;
                    case BACKFILL -> now.marked() > atStart.marked() && now.owedMarks() > 0;
                    default -> true;
                };
            }
            if (there) {
                return true;
            }
            Thread.sleep(warm ? 2 : 10);
        }
        return false;
    }

    private RunnerProcess start(Path config, Path logs, String name) {
        var runner = RunnerProcess.start(Path.of(BuiltRunner.jar()), config, logs.resolve(name + ".log"));
        runners.add(runner);
        return runner;
    }

    /**
     * The configuration both runs share: jobs paced fast so a kill often finds each of them at work (small dispatch
     * and backfill batches, short periods), and no flight leaving for history during the test (the
     * simulated day lies in the past).
     */
    private static Map<String, String> runnerKeys(RealServices services) {
        var keys = services.runnerKeys(); // without Kafka: the reference run keeps its events in the outbox
        keys.put(Keys.HTTP_PORT, "0");
        keys.put(Keys.POLL_INTERVAL, "100ms");
        keys.put(Keys.DISPATCH_BATCH, "40");
        keys.put(Keys.DISPATCH_INTERVAL, "200ms");
        keys.put(Keys.BACKFILL_BATCH, "50");
        keys.put(Keys.JOBS_BACKFILL, "300ms");
        keys.put(Keys.JOBS_STANDBY_POLL, "200ms");
        // A restart after a kill waits for the killed runner's lease to run out (D-108): kept short here.
        keys.put(Keys.LEASE_DURATION, "2s");
        keys.put(Keys.LEASE_RENEW_INTERVAL, "500ms");
        keys.put(Keys.JOBS_HOUSEKEEPING, "1h");
        keys.put(Keys.HISTORY_DAY_RETENTION, "36500d");
        return keys;
    }

    private Path configFile(Path logs, String applicationName, String msgTopic, String schdTopic, String referenceTopic)
            throws IOException {
        var keys = runnerKeys(crash);
        // The application name lets the probe find the runner's open transactions in pg_stat_activity.
        keys.put(Keys.STORE_URL, PgTestDatabase.URL + (PgTestDatabase.URL.contains("?") ? "&" : "?")
                + "ApplicationName=" + applicationName);
        keys.remove(Keys.KAFKA_ENABLED);
        keys.put(Keys.KAFKA_BOOTSTRAP, KafkaTestBroker.bootstrapServers());
        keys.put(Keys.KAFKA_TOPIC_MSG, msgTopic);
        keys.put(Keys.KAFKA_TOPIC_SCHD, schdTopic);
        keys.put(Keys.KAFKA_TOPIC_REFERENCE, referenceTopic);
        var file = logs.resolve("runner.properties");
        Files.writeString(file, keys.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")), StandardCharsets.UTF_8);
        return file;
    }

    private boolean drained(int total) {
        try {
            return crash.countInPostgres("select count(*) from proc_state where state in ('SUCCEEDED', 'SKIPPED', "
                    + "'DEAD')") == total
                    && crash.countInPostgres("select count(*) from msg_event where status <> 'SENT'") == 0
                    && crash.countInPostgres("select count(*) from proc_state where backfill_at is null") == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static Duration drainTimeout(int messages) {
        return Duration.ofSeconds(60 + messages / 20);
    }

    // ----------------------------------------------------------------------------------------------------------
    // What must hold afterwards
    // ----------------------------------------------------------------------------------------------------------

    /** Every mailbox ID has a processing record, none is open, and each ended as its kind says. */
    private static void assertNoMessageLost(List<MailboxFeeder.FedMessage> fed, StoreContents actual) {
        var firstIdOf = new LinkedHashMap<String, Long>();
        for (var message : fed) {
            var outcome = actual.outcomes().get(message.mailboxId());
            var what = "mailbox ID " + message.mailboxId() + " (" + message.message().kind() + " "
                    + message.message().description() + ") → " + outcome;
            assertThat(outcome).as("mailbox ID %d has a processing record", message.mailboxId()).isNotNull();
            var state = outcome.substring(0, outcome.indexOf(' '));
            switch (message.message().kind()) {
                case SCHEDULE, ADFT, FLOP, FDEL, REFERENCE -> assertThat(state).as(what).isEqualTo("SUCCEEDED");
                case DUPLICATE -> assertThat(outcome).as(what)
                        .startsWith("SKIPPED null duplicate-of:" + firstIdOf.get(message.message().xml()));
                case IGNORED -> assertThat(outcome).as(what).startsWith("SKIPPED null ignored:");
                case MALFORMED -> assertThat(outcome).as(what).startsWith("DEAD MALFORMED");
            }
            firstIdOf.putIfAbsent(message.message().xml(), message.mailboxId());
        }
        assertThat(actual.outcomes()).as("no processing record for a message nobody wrote").hasSize(fed.size());
    }

    /**
     * FIFO: the changes were committed in mailbox-ID order, all flights together (outbox EVENT_ID order); per flight
     * the notifications come from mailbox IDs in increasing order, with versions 1, 2, 3 ... up to the flight's
     * STATE_VERSION, and are those of the uninterrupted run.
     */
    private static void assertFifo(StoreContents actual, StoreContents expected) {
        assertThat(actual.commitOrder()).as("mailbox IDs of the changes in commit order").isSorted()
                .isEqualTo(expected.commitOrder());
        actual.notifications().forEach((flid, notifications) -> {
            for (int i = 0; i < notifications.size(); i++) {
                assertThat(notifications.get(i).stateVersion()).as("version of %s's notification %d", flid, i + 1)
                        .isEqualTo(i + 1L);
                if (i > 0) {
                    assertThat(notifications.get(i).msgId()).as("%s: notification %d comes from a later message than "
                            + "the one before", flid, i + 1).isGreaterThan(notifications.get(i - 1).msgId());
                }
            }
            assertThat((long) notifications.size()).as("%s: one notification per version", flid)
                    .isEqualTo(actual.versions().get(flid));
        });
        assertThat(actual.notifications()).as("per flight, the notifications of the uninterrupted run")
                .isEqualTo(expected.notifications());
    }

    /**
     * The msg topic holds, per flight, every notification of the outbox and no other, and the last copy of each comes
     * in outbox order (docs/delivery.md, D-35). Copies before it are at-least-once repeats: a round sent and
     * acknowledged, then the runner killed before it confirmed the round, so the next runner sends that flight's
     * unconfirmed notifications again; a consumer deduplicating by {@code stateVersion} drops them.
     */
    private static void assertMsgTopicCarriesEveryNotificationInOrder(StoreContents actual, TopicContents msg) {
        assertThat(msg.perKey().keySet()).isEqualTo(actual.notifications().keySet());
        msg.perKey().forEach((flid, values) -> {
            var expected = actual.notifications().get(flid).stream().map(StoreContents.Notification::payload).toList();
            var received = values.stream().map(CrashRecoveryIT::withoutEventId).toList();
            assertThat(new HashSet<>(received)).as("the notifications of %s on the msg topic", flid)
                    .isEqualTo(new HashSet<>(expected));
            var lastCopies = new ArrayList<String>();
            for (int i = 0; i < received.size(); i++) {
                if (received.lastIndexOf(received.get(i)) == i) {
                    lastCopies.add(received.get(i));
                }
            }
            assertThat(lastCopies).as("the last copy of each notification of %s, in the order received", flid)
                    .isEqualTo(expected);
        });
    }

    /** The most versions one flight's msg records went back at once (a repeated run after a kill); 0 if never. */
    private static long largestStepBack(TopicContents msg) {
        long largest = 0;
        for (var values : msg.perKey().values()) {
            long highest = 0;
            for (var value : values) {
                long version = versionOf(value);
                largest = Math.max(largest, version <= highest ? highest - version + 1 : 0);
                highest = Math.max(highest, version);
            }
        }
        return largest;
    }

    private static long versionOf(String value) {
        return Long.parseLong(value.replaceAll(".*\"stateVersion\":(\\d+).*", "$1"));
    }

    /**
     * The schd topic read to its end and compacted (last value per key, tombstones removing keys) is FLIGHT_SCHD:
     * the active flights and no other, each at its current version with the reference run's projection.
     */
    private static void assertSchdTopicIsFlightSchd(StoreContents actual, StoreContents expected, TopicContents schd) {
        var compacted = schd.compacted();
        var active = actual.states().entrySet().stream().filter(e -> e.getValue().equals("ACTIVE"))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertThat(compacted.keySet()).as("keys left on the compacted schd topic: the active flights")
                .isEqualTo(active);
        compacted.forEach((flid, value) -> {
            assertThat(StoreContents.withoutRunTime(value)).as("schd value of %s", flid)
                    .isEqualTo(expected.projections().get(flid))
                    .contains("\"stateVersion\":" + actual.versions().get(flid) + ",");
        });
        schd.perKey().forEach((flid, values) -> {
            long previous = 0;
            for (var value : values) {
                if (value != null) {
                    long version = versionOf(value);
                    assertThat(version).as("schd versions of %s never go back", flid).isGreaterThanOrEqualTo(previous);
                    previous = version;
                }
            }
        });
    }

    private void assertEveryRowMarkedInMailbox(int total) throws Exception {
        try (var connection = crash.aodbConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select count(*), count(CMINMSGS_DATE_PROCESSED) from CMINMSGS")) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(total);
            assertThat(rows.getLong(2)).as("mailbox rows marked processed").isEqualTo(total);
        }
        assertThat(crash.countInPostgres("select count(*) from proc_state where backfill_abandoned_at is not null"))
                .as("abandoned marks").isZero();
    }

    private static String withoutEventId(String notification) {
        return notification.replaceFirst("^\\{\"eventId\":\\d+,", "{");
    }

    private static List<String> differences(Map<Long, String> actual, Map<Long, String> expected) {
        var lines = new ArrayList<String>();
        var ids = new java.util.TreeSet<>(actual.keySet());
        ids.addAll(expected.keySet());
        for (var id : ids) {
            if (!java.util.Objects.equals(actual.get(id), expected.get(id))) {
                lines.add(id + ": " + actual.get(id) + " here, " + expected.get(id) + " in the reference run");
            }
        }
        return lines;
    }

    private String summary(AirportDay day, List<WorkInHand.AtKill> kills, StoreContents actual, TopicContents msg,
                           TopicContents schd, Map<String, Long> nanos) {
        var phases = new EnumMap<KillPhase, Integer>(KillPhase.class);
        kills.forEach(k -> k.phases().forEach(p -> phases.merge(p, 1, Integer::sum)));
        var byKind = new TreeMap<SimulatedMessage.Kind, Long>();
        day.messages().forEach(m -> byKind.merge(m.kind(), 1L, Long::sum));
        long notifications = actual.notifications().values().stream().mapToLong(List::size).sum();
        var text = new StringBuilder();
        text.append("CrashRecoveryIT: ").append(settings).append('\n');
        text.append("day: ").append(day.messages().size()).append(" messages ").append(byKind).append(", ")
                .append(actual.versions().size()).append(" flights\n");
        kills.forEach(k -> text.append(k.line()).append('\n'));
        text.append("kills per phase: ").append(phases).append('\n');
        var aims = new EnumMap<KillAim, String>(KillAim.class);
        for (var aim : KillAim.values()) {
            long aimed = kills.stream().filter(k -> k.aim() == aim).count();
            long reached = kills.stream().filter(k -> k.aim() == aim && k.aimReached()).count();
            aims.put(aim, reached + "/" + aimed);
        }
        text.append("aims reached/dealt: ").append(aims).append('\n');
        text.append("states: ").append(actual.countPerState()).append('\n');
        text.append("msg topic: ").append(msg.records()).append(" records for ").append(notifications)
                .append(" notifications (").append(msg.records() - notifications)
                .append(" repeated; largest step back ").append(largestStepBack(msg)).append(" versions)\n");
        text.append("schd topic: ").append(schd.records()).append(" records, ").append(schd.compacted().size())
                .append(" keys after compaction\n");
        nanos.forEach((what, n) -> text.append(what).append(": ").append(Duration.ofNanos(n).toMillis())
                .append(" ms\n"));
        return text.toString();
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
    }
}
