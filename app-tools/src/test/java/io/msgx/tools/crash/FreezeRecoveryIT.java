package io.msgx.tools.crash;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.BuiltRunner;
import io.msgx.runner.RealServices;
import io.msgx.runner.config.Keys;
import io.msgx.runner.reliability.ToxicProxy;
import io.msgx.tools.simulator.AirportDaySimulator;
import io.msgx.tools.simulator.MailboxFeeder;
import io.msgx.tools.simulator.SimulationSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38: two runner processes on one store, the active one made unresponsive the ways production does it, not
 * killed, while a simulated airport day is written into the mailbox; each instance reaches the store through a relay
 * of its own ({@link ToxicProxy}). The lease settings are the defaults ({@code msgx.lease.duration} 15 s, renewed
 * every 5 s, {@code msgx.jobs.standby-poll} 5 s, {@code msgx.store.idle-transaction-timeout} 10 s), so the take-over
 * times measured are the ones an airport gets.
 *
 * <ol>
 *   <li><b>The active JVM frozen</b> (SIGSTOP: a long pause, a paused VM): the standby B takes over; A is thawed
 *       and must find its lease gone and commit nothing.</li>
 *   <li><b>The active's store link frozen</b> (B's relay holds every byte, its connections stay open: a hung relay, a
 *       silent partition): A takes over again; B's link is thawed.</li>
 *   <li><b>The standby frozen</b> while A is active: A goes on, nobody takes over; B is thawed and stays standby.</li>
 * </ol>
 *
 * Then, once the last instance drained the day, the run must end where an uninterrupted run of the same day ends
 * ({@link InterruptedRun}'s checks: nothing lost, nothing applied twice, FIFO, the topics, every mark written), and
 * each take-over must have come within 30 s of the freeze. The figures go to
 * {@code target/freeze-recovery/<schema>/summary.txt}.
 */
class FreezeRecoveryIT {

    /** The bound: a standby takes over within 30 s of the active's last sign of life, at the defaults. */
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int FLIGHTS = Integer.getInteger("msgx.freeze.flights", 25);
    private static final long SEED = Long.getLong("msgx.freeze.seed", 38);

    @RegisterExtension
    final RealServices run = new RealServices();

    @RegisterExtension
    final RealServices reference = new RealServices();

    private final InterruptedRun interrupted = new InterruptedRun(run, reference);
    private final List<RunnerProcess> runners = new ArrayList<>();
    private final List<ToxicProxy> links = new ArrayList<>();
    private TrickleFeeder feeder;

    @AfterEach
    void cleanUp() throws Exception {
        if (feeder != null) {
            feeder.close();
        }
        for (var runner : runners) {
            if (runner.isAlive()) {
                runner.thaw();
                runner.kill();
            }
        }
        links.forEach(ToxicProxy::close);
    }

    @Test
    void frozen_instances_are_replaced_within_the_bound_and_the_run_ends_where_an_uninterrupted_run_ends()
            throws Exception {
        var day = new AirportDaySimulator().generate(SimulationSettings.of(SEED, FLIGHTS,
                InterruptedRun.OPERATION_DAY));
        int total = day.messages().size();
        int share = (int) Math.ceil(total / 4.0);
        var referenceIds = interrupted.referenceRun(day);
        var expected = StoreContents.read(reference.storeDataSource());

        var topics = InterruptedRun.Topics.fresh("freeze");
        var logs = Files.createDirectories(Path.of("target", "freeze-recovery", run.postgres.schema()));
        var probe = new WorkInHand(run.storeDataSource(), run::aodbConnection, "msgx-freeze-a-" + run.postgres.schema());
        var linkA = link();
        var linkB = link();
        var a = start("a", linkA, logs, topics);
        assertThat(a.awaitActive(Duration.ofSeconds(60))).as("A becomes active; see " + a.log()).isTrue();
        var b = start("b", linkB, logs, topics);
        InterruptedRun.await("B waits as a hot standby", Duration.ofSeconds(60), () -> standbyAnnouncements(b) == 1);

        feeder = new TrickleFeeder(new MailboxFeeder(run.mailbox(), InterruptedRun.AIRPORT).open(day));
        feeder.release(share);
        awaitProgress("A processes the first share", probe);

        var takeOvers = new LinkedHashMap<String, Duration>();
        takeOvers.put("the active JVM frozen (SIGSTOP)", takeOver(a::freeze, b, share));
        awaitProgress("B processes what arrived meanwhile", probe);
        a.thaw();
        InterruptedRun.await("A, thawed, finds its lease gone and waits as a standby", Duration.ofMinutes(2),
                () -> a.logText().contains("Leader lease lost") && standbyAnnouncements(a) == 1);

        takeOvers.put("the active's store link frozen (relay held)", takeOver(linkB::freeze, a, share));
        awaitProgress("A processes what arrived meanwhile", probe);
        linkB.thaw();
        InterruptedRun.await("B, its link thawed, finds its lease gone and waits as a standby",
                Duration.ofSeconds(150), () -> b.logText().contains("Leader lease lost") && standbyAnnouncements(b) == 2);

        long epoch = epoch();
        b.freeze();
        feeder.release(share);
        long frozenAt = System.nanoTime();
        awaitProgress("A goes on while the standby is frozen", probe);
        while (Duration.ofNanos(System.nanoTime() - frozenAt).compareTo(Duration.ofSeconds(20)) < 0) {
            Thread.sleep(200); // longer than a lease: a standby frozen must not cost the active its lease
        }
        assertThat(epoch()).as("nobody took over while the standby was frozen").isEqualTo(epoch);
        assertThat(a.timesActive()).isEqualTo(2);
        b.thaw();

        feeder.releaseAll();
        feeder.awaitReleased(Duration.ofMinutes(5));
        try {
            InterruptedRun.await("A drains intake, processing, dispatch and backfill", InterruptedRun.drainTimeout(total),
                    () -> interrupted.drained(total));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; left: " + probe.read() + "; see " + a.log(), e);
        }
        assertThat(b.timesActive()).as("B, thawed, stayed a standby").isEqualTo(1);
        assertThat(b.stop(Duration.ofSeconds(30))).as("SIGTERM stops the standby").isTrue();
        assertThat(a.stop(Duration.ofSeconds(30))).as("SIGTERM stops the active").isTrue();

        var fed = feeder.fed();
        var actual = StoreContents.read(run.storeDataSource());
        var msg = TopicContents.of(KafkaTestBroker.readAll(topics.msg(), Duration.ofSeconds(60)));
        var schd = TopicContents.of(KafkaTestBroker.readAll(topics.schd(), Duration.ofSeconds(60)));
        var summary = summary(total, takeOvers, msg, actual);
        Files.writeString(logs.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
        System.out.println(summary);

        assertThat(epoch()).as("three holders in turn: A, B, A").isEqualTo(3);
        assertThat(takeOvers).allSatisfy((how, took) -> assertThat(took).as(how).isLessThan(BOUND));
        interrupted.assertEndsAsTheReference(fed, referenceIds, actual, expected, msg, schd);
    }

    /**
     * Freeze the active instance the way {@code freeze} does, while the next {@code share} of the day is written, and
     * wait until {@code standby} is active; returns how long that took from the freeze.
     */
    private Duration takeOver(Freeze freeze, RunnerProcess standby, int share) throws Exception {
        int before = standby.timesActive();
        freeze.run();
        long frozenAt = System.nanoTime();
        feeder.release(share);
        InterruptedRun.await("the standby takes over", Duration.ofMinutes(2), () -> standby.timesActive() > before);
        return Duration.ofNanos(System.nanoTime() - frozenAt);
    }

    @FunctionalInterface
    private interface Freeze {
        void run() throws Exception;
    }

    /** Until more messages ended than when this was asked, within a minute. */
    private static void awaitProgress(String what, WorkInHand probe) throws Exception {
        long ended = probe.read().ended();
        InterruptedRun.await(what, Duration.ofSeconds(60), () -> {
            try {
                return probe.read().ended() > ended;
            } catch (java.sql.SQLException e) {
                return false;
            }
        });
    }

    private ToxicProxy link() {
        var link = ToxicProxy.inFrontOf(PgTestDatabase.URL, 5432);
        links.add(link);
        return link;
    }

    /** Runner {@code name} reaching the store through {@code link}, at the lease's default settings. */
    private RunnerProcess start(String name, ToxicProxy link, Path logs, InterruptedRun.Topics topics)
            throws Exception {
        var url = "jdbc:postgresql://127.0.0.1:" + link.port() + "/" + ToxicProxy.databaseOf(PgTestDatabase.URL);
        var config = interrupted.configFile(logs, name + ".properties", url,
                "msgx-freeze-" + name + "-" + run.postgres.schema(), topics, keys -> {
                    keys.remove(Keys.LEASE_DURATION);
                    keys.remove(Keys.LEASE_RENEW_INTERVAL);
                    keys.remove(Keys.JOBS_STANDBY_POLL);
                    keys.remove(Keys.STORE_IDLE_TRANSACTION_TIMEOUT);
                });
        var runner = RunnerProcess.start(Path.of(BuiltRunner.jar()), config, logs.resolve(name + ".log"));
        runners.add(runner);
        return runner;
    }

    private static int standbyAnnouncements(RunnerProcess runner) {
        return runner.timesLogged("waiting as a hot standby");
    }

    private long epoch() throws Exception {
        return run.countInPostgres("select epoch from leader_lease where name = 'LEADER'");
    }

    private static String summary(int total, Map<String, Duration> takeOvers, TopicContents msg,
                                  StoreContents actual) {
        long notifications = actual.notifications().values().stream().mapToLong(List::size).sum();
        var text = new StringBuilder("FreezeRecoveryIT: " + FLIGHTS + " flights, seed " + SEED + ", " + total
                + " messages; lease at its defaults (15 s, renewed every 5 s; standby poll 5 s)\n");
        takeOvers.forEach((how, took) -> text.append("take-over after ").append(how).append(": ")
                .append(took.toMillis()).append(" ms\n"));
        text.append("msg topic: ").append(msg.records()).append(" records for ").append(notifications)
                .append(" notifications (largest step back ").append(InterruptedRun.largestStepBack(msg))
                .append(" versions)\n");
        return text.toString();
    }
}
