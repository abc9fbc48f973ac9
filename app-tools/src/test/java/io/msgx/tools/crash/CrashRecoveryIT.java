package io.msgx.tools.crash;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.BuiltRunner;
import io.msgx.runner.RealServices;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.tools.simulator.AirportDay;
import io.msgx.tools.simulator.AirportDaySimulator;
import io.msgx.tools.simulator.MailboxFeeder;
import io.msgx.tools.simulator.SimulatedMessage;
import io.msgx.tools.simulator.SimulationSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

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
 * Then the crash run must end where the reference ended ({@link InterruptedRun}'s checks: nothing lost, nothing
 * applied twice, FIFO, the topics, every mark written).
 *
 * <p>Short by default (6 kills, 25 flights); {@link CrashSettings} says how to run the long form. It lives in app-tools
 * for the simulator (D-89); the jar it kills is the production one, app-runner's ({@code msgx.runner.jar}).
 */
class CrashRecoveryIT {

    @RegisterExtension
    final RealServices crash = new RealServices();

    @RegisterExtension
    final RealServices reference = new RealServices();

    private final CrashSettings settings = CrashSettings.fromSystemProperties();
    private final InterruptedRun interrupted = new InterruptedRun(crash, reference);
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
                InterruptedRun.OPERATION_DAY));
        int total = day.messages().size();

        var referenceIds = interrupted.referenceRun(day);
        var expected = StoreContents.read(reference.storeDataSource());
        long referenceDone = System.nanoTime();

        var topics = InterruptedRun.Topics.fresh("crash");
        var logs = Files.createDirectories(Path.of("target", "crash-recovery", crash.postgres.schema()));
        var applicationName = "msgx-crash-" + crash.postgres.schema();
        var config = interrupted.configFile(logs, "runner.properties", PgTestDatabase.URL, applicationName,
                topics, keys -> { });
        var probe = new WorkInHand(crash.storeDataSource(), crash::aodbConnection, applicationName);

        feeder = new TrickleFeeder(new MailboxFeeder(crash.mailbox(), InterruptedRun.AIRPORT).open(day));
        var kills = killRepeatedly(config, logs, probe, total);
        long killsDone = System.nanoTime();

        feeder.releaseAll();
        feeder.awaitReleased(Duration.ofMinutes(5));
        var last = start(config, logs, "final");
        assertThat(last.awaitActive(Duration.ofSeconds(60))).as("the last restart becomes active; see " + last.log())
                .isTrue();
        try {
            InterruptedRun.await("the last restart drains intake, processing, dispatch and backfill",
                    InterruptedRun.drainTimeout(total), () -> interrupted.drained(total));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; left: " + probe.read() + "; see " + last.log(), e);
        }
        assertThat(last.stop(Duration.ofSeconds(30))).as("SIGTERM stops the last runner").isTrue();
        long drainDone = System.nanoTime();

        var fed = feeder.fed();
        var actual = StoreContents.read(crash.storeDataSource());
        var msg = TopicContents.of(KafkaTestBroker.readAll(topics.msg(), Duration.ofSeconds(60)));
        var schd = TopicContents.of(KafkaTestBroker.readAll(topics.schd(), Duration.ofSeconds(60)));

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

        interrupted.assertEndsAsTheReference(fed, referenceIds, actual, expected, msg, schd);
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
                .append(" repeated; largest step back ").append(InterruptedRun.largestStepBack(msg)).append(" versions)\n");
        text.append("schd topic: ").append(schd.records()).append(" records, ").append(schd.compacted().size())
                .append(" keys after compaction\n");
        nanos.forEach((what, n) -> text.append(what).append(": ").append(Duration.ofNanos(n).toMillis())
                .append(" ms\n"));
        return text.toString();
    }


}
