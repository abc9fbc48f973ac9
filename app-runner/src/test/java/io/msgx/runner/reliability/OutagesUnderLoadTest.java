package io.msgx.runner.reliability;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.runner.config.Keys;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.msgx.runner.reliability.ProxiedPipeline.POLL_INTERVAL;
import static io.msgx.runner.reliability.ProxiedPipeline.await;
import static io.msgx.runner.reliability.ProxiedPipeline.timeUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each service the pipeline depends on goes away while the AODB side keeps writing, and comes back: PostgreSQL and
 * the MariaDB mailbox (cut off by a {@link ToxicProxy}, the shared servers keep running), the Kafka broker (really
 * stopped and restarted, same port, same log). And a connection cut mid-transaction, on each database.
 *
 * <p>What must hold: while a service is away nothing is taken for "no messages" (the watermark stays, readiness
 * names the service DOWN) and no message is ended, failed or given up because of it; once it is back the pipeline
 * resumes by itself within two poll intervals ({@link #RESUME_BOUND}); at the end
 * every mailbox row is {@code SUCCEEDED} exactly once, in FIFO order per flight, and Kafka has every event.
 *
 * <p>Default: a short run (a few hundred messages, outages of {@value #DEFAULT_OUTAGE_SECONDS} s). Longer:
 * {@code -Dmsgx.reliability.outage-seconds=60 -Dmsgx.reliability.flights=200} (see docs/reliability.md). The measured
 * resume delays are printed as {@code RELIABILITY ...} lines.
 */
@Slow
class OutagesUnderLoadTest {

    static final int DEFAULT_OUTAGE_SECONDS = 3;
    /** Set to {@code true} to also stop and start the machine's real servers (scripts/reliability.sh restarts). */
    static final String REAL_RESTARTS = "msgx.reliability.real-restarts";
    /** How long the service stays away. */
    private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("msgx.reliability.outage-seconds",
            DEFAULT_OUTAGE_SECONDS));
    private static final int FLIGHTS = Integer.getInteger("msgx.reliability.flights", 20);
    private static final Duration FEED_EVERY = Duration.ofMillis(10);
    /**
     * The bound: processing (delivery, for the broker) resumes by itself within two poll intervals of the
     * service's return. Nothing is added for reconnecting: the pools probe an unreachable database at most 100 ms
     * apart and reconnect on the first answer (ReconnectingPool), and a lease lost to a store outage is asked for
     * again every poll interval.
     */
    private static final Duration RESUME_BOUND = POLL_INTERVAL.multipliedBy(2);
    /** Time for a transaction in flight at the moment of the cut to end either way. */
    private static final Duration SETTLE = Duration.ofMillis(700);

    @RegisterExtension
    final ProxiedPipeline pipeline = new ProxiedPipeline();

    @Test
    void postgres_goes_away_under_load_nothing_moves_and_the_pipeline_resumes_by_itself() throws Exception {
        pipeline.start(Map.of());
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();

        pipeline.postgresProxy.goDown();
        Thread.sleep(SETTLE.toMillis());
        long endedWhenDown = pipeline.ended();
        long watermarkWhenDown = pipeline.watermark();
        var readiness = pipeline.readiness();
        Thread.sleep(Math.max(0, OUTAGE.minus(SETTLE).toMillis()));

        assertThat(readiness.status()).as("not ready while the store is away").isEqualTo(503);
        assertThat(readiness.down("store")).as(readiness.body()).isTrue();
        assertThat(pipeline.ended()).as("nothing ends while the store is away").isEqualTo(endedWhenDown);
        assertThat(pipeline.watermark()).as("intake cannot move either").isEqualTo(watermarkWhenDown);

        long back = System.nanoTime();
        pipeline.postgresProxy.comeBack();
        var resumed = timeUntil("processing resumes after the store is back", back, Duration.ofSeconds(60),
                () -> pipeline.ended() > endedWhenDown);
        report("postgres", resumed);

        finish(traffic);
        assertThat(resumed).as("resume delay after the store came back").isLessThanOrEqualTo(RESUME_BOUND);
    }

    @Test
    void the_mailbox_goes_away_under_load_it_is_not_taken_for_empty_and_nothing_is_failed() throws Exception {
        pipeline.start(Map.of());
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();

        pipeline.mailboxProxy.goDown();
        Thread.sleep(SETTLE.toMillis());
        long endedWhenDown = pipeline.ended();
        long watermarkWhenDown = pipeline.watermark();
        int fedWhenDown = traffic.fed();
        var readiness = pipeline.readiness();
        Thread.sleep(Math.max(0, OUTAGE.minus(SETTLE).toMillis()));

        assertThat(traffic.fed()).as("the AODB side kept writing").isGreaterThan(fedWhenDown);
        assertThat(readiness.status()).isEqualTo(503);
        assertThat(readiness.down("mailbox")).as(readiness.body()).isTrue();
        assertThat(readiness.down("store")).as(readiness.body()).isFalse();
        assertThat(pipeline.watermark()).as("an unreachable mailbox is not an empty one: the watermark stays")
                .isEqualTo(watermarkWhenDown);
        assertThat(pipeline.ended()).as("no message can be read, so none ends").isEqualTo(endedWhenDown);
        assertThat(pipeline.count("select count(*) from proc_state where state in ('FAILED','DEAD') or attempts > 0"))
                .as("the outage is not held against any message: no attempt used, nothing failed or dead").isZero();

        long back = System.nanoTime();
        pipeline.mailboxProxy.comeBack();
        var resumed = timeUntil("processing resumes after the mailbox is back", back, Duration.ofSeconds(60),
                () -> pipeline.ended() > endedWhenDown);
        report("mailbox", resumed);

        finish(traffic);
        assertThat(resumed).as("resume delay after the mailbox came back").isLessThanOrEqualTo(RESUME_BOUND);
    }

    @Test
    void the_kafka_broker_stops_under_load_processing_goes_on_and_every_event_arrives_after_its_restart()
            throws Exception {
        // A delivery timeout shorter than the outage, so the outbox's own retry path is exercised, not only the
        // producer's internal retries.
        pipeline.start(Map.of(Keys.KAFKA_DELIVERY_TIMEOUT, "2s", Keys.KAFKA_REQUEST_TIMEOUT, "1s",
                Keys.KAFKA_MAX_BLOCK, "1s", Keys.KAFKA_LINGER, "5ms"));
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();
        await("events are delivered", Duration.ofSeconds(30), () -> pipeline.sentEvents() > 0);

        // A round in flight when the broker stops hears back within the delivery timeout (2 s here) and then confirms
        // what the broker acknowledged before it stopped: the round's SENT_AT is when it heard back. From then on
        // nothing may be confirmed; the outage lasts long enough to watch that for two seconds at least.
        var roundsHeardBack = Duration.ofSeconds(2).plus(SETTLE);
        var outage = OUTAGE.compareTo(roundsHeardBack.plusSeconds(2)) >= 0 ? OUTAGE : roundsHeardBack.plusSeconds(2);
        long endedWhenDown;
        ProxiedPipeline.Readiness readiness;
        long back;
        Instant backAt;
        try {
            KafkaTestBroker.stopBroker();
            Thread.sleep(SETTLE.toMillis());
            endedWhenDown = pipeline.ended();
            readiness = pipeline.readiness();
            Thread.sleep(roundsHeardBack.minus(SETTLE).toMillis());
            var quiet = Instant.now();
            Thread.sleep(outage.minus(roundsHeardBack).toMillis());

            assertThat(sentAfter(quiet)).as("nothing is confirmed sent while the broker is away").isZero();
            assertThat(pipeline.ended()).as("processing does not wait for the broker").isGreaterThan(endedWhenDown);
        } finally {
            KafkaTestBroker.startBroker();
            back = System.nanoTime();
            backAt = Instant.now();
        }
        assertThat(readiness.status()).isEqualTo(503);
        assertThat(readiness.down("broker")).as(readiness.body()).isTrue();

        var resumed = timeUntil("delivery resumes after the broker is back", back, Duration.ofSeconds(120),
                () -> sentAfter(backAt) > 0);
        report("kafka", resumed);

        finish(traffic);
        assertThat(pipeline.count("select count(*) from msg_event where status = 'DEAD'")).isZero();
        assertThat(resumed).as("resume delay after the broker came back").isLessThanOrEqualTo(RESUME_BOUND);
    }

    /**
     * Outbox rows confirmed sent after {@code instant} (their {@code SENT_AT}). A total of {@code SENT} rows would not
     * do: while the pump goes on, a flight's new state turns its {@code KAFKA:schd} row, sent before, back to
     * {@code PENDING} (one row per FLID, replaced at each accepted state), so that total falls during a long outage
     * without anything being lost.
     */
    private long sentAfter(Instant instant) {
        return pipeline.count("select count(*) from msg_event where status = 'SENT' and sent_at > '" + instant + "'");
    }

    @Test
    void a_postgres_connection_cut_inside_a_group_commit_loses_nothing_and_applies_nothing_twice() throws Exception {
        pipeline.start(Map.of());
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();

        // The group's transaction is the one that writes outbox payloads (inside bound arrays: their words always travel).
        // First the connection is cut as the payloads go out (the group rolls back, nothing of it stays); then
        // PostgreSQL's answer to that transaction's COMMIT is lost (the group committed, the pipeline cannot know).
        awaitCut("postgres-mid-transaction", pipeline.postgresProxy.cutWhenClientSends("stateVersion"));
        awaitCut("postgres-commit-answer-lost", pipeline.postgresProxy.cutWhenServerAnswers("stateVersion", "COMMIT"));

        finish(traffic);
    }

    @Test
    void a_mailbox_connection_cut_while_reading_texts_and_while_marking_loses_nothing() throws Exception {
        pipeline.start(Map.of(Keys.JOBS_BACKFILL, "500ms"));
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();

        // A group's texts: the query reaches MariaDB, the rows never come back.
        awaitCut("mailbox-texts-answer-lost",
                pipeline.mailboxProxy.cutWhenServerAnswers("SELECT `CMINMSGS_ID`, `CMINMSGS_CLOB_MSG`", "<MSG>"));
        // The processing marks: the UPDATE never reaches MariaDB.
        awaitCut("mailbox-mark-lost", pipeline.mailboxProxy.cutWhenClientSends("UPDATE `CMINMSGS` SET"));

        finish(traffic);
        await("every processing mark is written in the mailbox", Duration.ofSeconds(60), () -> unmarked() == 0);
    }

    /**
     * Long form only ({@code scripts/reliability.sh restarts}): the machine's PostgreSQL server itself is stopped
     * (fast shutdown, every session terminated) under load and started again. The resume delay runs from the moment
     * the server answers again to the first message that ends after it ({@code PROC_STATE.UPDATED_AT}), so the
     * test's own reconnection does not count.
     */
    @Test
    @EnabledIfSystemProperty(named = REAL_RESTARTS, matches = "true")
    void the_postgres_server_really_stops_and_starts_under_load_and_the_pipeline_resumes_by_itself() throws Exception {
        LocalServers.assumeTheTestsUseThem();
        pipeline.start(Map.of());
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();

        Instant back;
        ProxiedPipeline.Readiness readiness;
        try {
            LocalServers.stopPostgres();
            Thread.sleep(SETTLE.toMillis());
            readiness = pipeline.readiness();
            Thread.sleep(Math.max(0, OUTAGE.minus(SETTLE).toMillis()));
        } finally {
            LocalServers.startBoth();
            back = Instant.now();
        }
        assertThat(readiness.status()).as("not ready while the store is down").isEqualTo(503);
        assertThat(readiness.down("store")).as(readiness.body()).isTrue();
        // Read once, soon: later jobs (the backfill marks) move UPDATED_AT on.
        var resumed = firstEndAfter(back);
        report("postgres-restart", resumed);

        finish(traffic);
        assertThat(resumed).as("resume delay after the server came back").isLessThanOrEqualTo(RESUME_BOUND);
    }

    /**
     * Long form only: the machine's MariaDB server (the mailbox) is stopped under load and started again. The AODB
     * side pauses meanwhile (its writes go to the same server, and a write whose commit died with the server could
     * not be told apart from one that never happened) and writes again as soon as the server is back.
     */
    @Test
    @EnabledIfSystemProperty(named = REAL_RESTARTS, matches = "true")
    void the_mariadb_server_really_stops_and_starts_under_load_and_nothing_is_failed() throws Exception {
        LocalServers.assumeTheTestsUseThem();
        pipeline.start(Map.of());
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        awaitFlowing();

        Instant back;
        long watermarkWhenDown;
        ProxiedPipeline.Readiness readiness;
        traffic.pause();
        try {
            LocalServers.stopMariaDb();
            Thread.sleep(SETTLE.toMillis());
            watermarkWhenDown = pipeline.watermark();
            readiness = pipeline.readiness();
            Thread.sleep(Math.max(0, OUTAGE.minus(SETTLE).toMillis()));
            assertThat(pipeline.watermark()).as("a stopped mailbox is not an empty one: the watermark stays")
                    .isEqualTo(watermarkWhenDown);
            assertThat(pipeline.count("select count(*) from proc_state where state in ('FAILED','DEAD') or attempts > 0"))
                    .as("the outage is not held against any message").isZero();
        } finally {
            LocalServers.startBoth();
            back = Instant.now();
            traffic.resume();
        }
        assertThat(readiness.status()).isEqualTo(503);
        assertThat(readiness.down("mailbox")).as(readiness.body()).isTrue();
        // Read once, soon: later jobs (the backfill marks) move UPDATED_AT on.
        var resumed = firstEndAfter(back);
        report("mariadb-restart", resumed);

        finish(traffic);
        assertThat(resumed).as("resume delay after the server came back").isLessThanOrEqualTo(RESUME_BOUND);
    }

    /** How long after {@code back} the first message ended, read from {@code PROC_STATE.UPDATED_AT}. */
    private Duration firstEndAfter(Instant back) throws InterruptedException {
        var since = back.truncatedTo(java.time.temporal.ChronoUnit.MICROS).toString();
        var millis = new java.util.concurrent.atomic.AtomicLong(-1);
        await("a message ends after the server is back", Duration.ofSeconds(60), () -> {
            try {
                millis.set(pipeline.count("select coalesce(floor(extract(epoch from min(updated_at) - timestamptz '" + since
                        + "') * 1000), -1) from proc_state where state in ('SUCCEEDED','SKIPPED','DEAD') and updated_at > "
                        + "timestamptz '" + since + "'"));
                return millis.get() >= 0;
            } catch (IllegalStateException e) {
                return false; // the test's own pool is still reconnecting
            }
        });
        return Duration.ofMillis(millis.get());
    }

    /** Wait for a planned cut, then for processing to go on after it; reports how long that took. */
    private void awaitCut(String what, java.util.concurrent.CountDownLatch fired) throws InterruptedException {
        assertThat(fired.await(30, TimeUnit.SECONDS)).as("the cut happened: " + what).isTrue();
        long endedAtCut = pipeline.ended();
        var resumed = timeUntil("processing goes on after the cut " + what, System.nanoTime(), Duration.ofSeconds(60),
                () -> pipeline.ended() > endedAtCut);
        report("cut-" + what, resumed);
    }

    /** Mailbox rows still without their processing mark, read on the AODB side's direct connection. */
    private long unmarked() {
        try (var connection = pipeline.aodbConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select count(*) from CMINMSGS where CMINMSGS_DATE_PROCESSED is null")) {
            rows.next();
            return rows.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Wait until messages are being processed and delivered under load. */
    private void awaitFlowing() throws InterruptedException {
        await("the pipeline processes the AODB traffic", Duration.ofSeconds(30), () -> pipeline.ended() >= 30);
    }

    /**
     * Keep the traffic running a little after the return, stop it, wait until everything written is processed and
     * delivered, then check the store and Kafka against what was written.
     */
    private void finish(AodbTraffic traffic) throws Exception {
        Thread.sleep(500);
        traffic.stop();
        long fed = traffic.fed();
        await("all " + fed + " messages processed", Duration.ofSeconds(90), () -> pipeline.ended() == fed);
        await("every event delivered", Duration.ofSeconds(90),
                () -> pipeline.count("select count(*) from msg_event where status <> 'SENT'") == 0);
        traffic.assertStoreMatches(pipeline);
        traffic.assertKafkaMatches(pipeline);
        System.out.println("RELIABILITY messages=" + fed + " flights=" + FLIGHTS + " outage=" + OUTAGE.toMillis() + "ms");
    }

    private static void report(String service, Duration resumed) {
        System.out.println("RELIABILITY resume-delay " + service + " " + resumed.toMillis() + " ms (bound "
                + RESUME_BOUND.toMillis() + " ms = 2 x poll interval " + POLL_INTERVAL.toMillis() + " ms)");
    }
}
