package io.msgx.runner.reliability;

import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.config.Keys;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.reliability.ProxiedPipeline.POLL_INTERVAL;
import static io.msgx.runner.reliability.ProxiedPipeline.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A storm of holes in {@code CMINMSGS} while the whole runner works: besides steady committed traffic, AODB-side
 * transactions that insert blocks of rows and roll back (permanent holes in the AUTO_INCREMENT IDs, thousands of
 * them), and transactions that hold their rows open and commit late — most within {@code max-commit-delay}, a few
 * beyond it. {@code HolesAndFifoOnRealDatabasesTest} proves each rule once, step by step with a settable clock; this
 * is the same rules under load, with real threads and real time.
 *
 * <p>What must hold: no message is processed before a smaller committed one that intake had a right to wait for
 * (zero FIFO violations, globally and per flight); every ID below the watermark that was not enqueued is counted in
 * {@code msgx.inbox.permanent_holes}, and nothing else is; a late commit within {@code max-commit-delay} is never
 * lost; the longest stall of intake at a gap stays within {@code max-commit-delay} plus two poll intervals.
 *
 * <p>Default: about 2,000 rolled-back IDs, a few hundred late-committed rows, {@code max-commit-delay} 2 s. Longer:
 * {@code -Dmsgx.reliability.storm-scale=10} (see docs/reliability.md). Figures are printed as {@code RELIABILITY ...}.
 */
@Slow
class HoleStormTest {

    private static final Duration MAX_COMMIT_DELAY = Duration.ofSeconds(2);
    private static final int SCALE = Integer.getInteger("msgx.reliability.storm-scale", 1);
    private static final int ROLLBACK_BURSTS = 7 * SCALE;
    private static final int ROWS_PER_ROLLBACK = 300;
    private static final int LATE_COMMITS = 12 * SCALE;
    private static final int ROWS_PER_LATE_COMMIT = 20;
    private static final int TOO_LATE_COMMITS = 2 * SCALE;
    /** Far above any SEQN {@link AodbTraffic} gives: the storm's identities never collide with the traffic's. */
    private static final long STORM_SEQN_BASE = 1_000_000_000L;
    /** Slack for the round that sees the gap aged out: it comes at most a poll interval after, plus one more round. */
    private static final Duration STALL_BOUND = MAX_COMMIT_DELAY.plus(POLL_INTERVAL.multipliedBy(2));

    @RegisterExtension
    final ProxiedPipeline pipeline = new ProxiedPipeline();

    private final SisMessages sis = new SisMessages();
    private final AtomicLong stormRow = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Long> rolledBack = new ArrayList<>();
    private final List<Long> committedLateWithin = new ArrayList<>();
    private final List<Long> committedTooLate = new ArrayList<>();

    @Test
    void thousands_of_rolled_back_inserts_and_hundreds_of_late_commits_keep_fifo_and_every_hole_is_counted()
            throws Exception {
        var exchange = pipeline.start(Map.of(Keys.MAX_COMMIT_DELAY, MAX_COMMIT_DELAY.toMillis() + "ms"));
        var stall = new StallWatch();
        stall.start();
        var traffic = AodbTraffic.start(pipeline.aodbSide(), 20, Duration.ofMillis(40));
        var random = new Random(42);
        var rollbacks = writer("rollbacks", () -> {
            for (int i = 0; i < ROLLBACK_BURSTS; i++) {
                rolledBack.addAll(insertBlock(ROWS_PER_ROLLBACK, Duration.ZERO, false));
                Thread.sleep(300 + random.nextInt(400));
            }
        });
        var late = writer("late", () -> {
            for (int i = 0; i < LATE_COMMITS; i++) {
                // Held 0.3 to 1.5 s: well inside max-commit-delay, so intake must wait for them.
                committedLateWithin.addAll(insertBlock(ROWS_PER_LATE_COMMIT, Duration.ofMillis(300 + random.nextInt(1200)),
                        true));
            }
        });
        var tooLate = writer("too-late", () -> {
            for (int i = 0; i < TOO_LATE_COMMITS; i++) {
                Thread.sleep(1000);
                committedTooLate.addAll(insertBlock(5, MAX_COMMIT_DELAY.multipliedBy(2), true));
            }
        });
        for (var writer : List.of(rollbacks, late, tooLate)) {
            writer.join(Duration.ofMinutes(10).toMillis());
        }
        traffic.stop();
        if (failure.get() != null) {
            throw new AssertionError("an AODB-side writer failed: " + failure.get(), failure.get());
        }
        long lastId = maxMailboxId();
        await("intake passes the last mailbox row " + lastId, Duration.ofSeconds(120), () -> pipeline.watermark() >= lastId);
        await("every enqueued message processed", Duration.ofSeconds(120),
                () -> pipeline.count("select count(*) from proc_state where state not in ('SUCCEEDED','SKIPPED','DEAD')") == 0);
        stall.stop();

        long watermark = pipeline.watermark();
        long enqueued = pipeline.count("select count(*) from proc_state where msg_id <= " + watermark);
        long missing = watermark - enqueued;
        double counted = exchange.meterRegistry().get(MicrometerPipelineMetrics.PERMANENT_HOLES).counter().count();
        long lostLate = committedTooLate.stream().filter(id -> pipeline.count(
                "select count(*) from proc_state where msg_id = " + id) == 0).count();

        assertThat(pipeline.count("select count(*) from (select msg_id, lag(msg_id) over (order by event_id) as before "
                + "from msg_event where target = 'KAFKA:msg') x where msg_id < before"))
                .as("FIFO: the changes were decided in mailbox order (every message here changes a flight)").isZero();
        assertThat(pipeline.count("select count(*) from (select msg_id, lag(msg_id) over (partition by partition_key "
                + "order by state_version) as before from msg_event where target = 'KAFKA:msg') x where msg_id < before"))
                .as("FIFO per flight: versions follow mailbox order").isZero();
        assertThat(pipeline.count("select count(*) from proc_state where state <> 'SUCCEEDED'")).isZero();
        assertThat(rolledBack).allSatisfy(id -> assertThat(id).isLessThanOrEqualTo(watermark));
        assertThat(pipeline.count("select count(*) from proc_state where msg_id in (" + join(rolledBack) + ")"))
                .as("a rolled-back insert is never processed").isZero();
        assertThat(pipeline.count("select count(*) from proc_state where msg_id in (" + join(committedLateWithin) + ")"))
                .as("a commit within max-commit-delay is never lost").isEqualTo(committedLateWithin.size());
        assertThat(missing).as("IDs skipped = rolled back + committed too late and given up")
                .isEqualTo(rolledBack.size() + lostLate);
        assertThat((long) counted).as("every permanent hole is counted, once").isEqualTo(missing);
        assertThat(stall.longest()).as("longest stall of intake at a gap").isLessThanOrEqualTo(STALL_BOUND);
        traffic.assertFlightsMatch(pipeline);

        System.out.println("RELIABILITY hole-storm rolled-back-ids=" + rolledBack.size() + " late-within-rows="
                + committedLateWithin.size() + " too-late-rows=" + committedTooLate.size() + " too-late-lost=" + lostLate
                + " permanent-holes-counted=" + (long) counted + " processed=" + enqueued + " watermark=" + watermark
                + " longest-stall=" + stall.longest().toMillis() + "ms (bound " + STALL_BOUND.toMillis() + " ms)"
                + " gaps-seen=" + stall.gaps());
    }

    /**
     * One AODB-side transaction: insert {@code rows} schedule messages in one multi-row INSERT (one block of
     * consecutive IDs), hold it open for {@code hold}, then commit or roll back. Returns the IDs it took.
     */
    private List<Long> insertBlock(int rows, Duration hold, boolean commit) throws Exception {
        try (Connection aodb = pipeline.aodbConnection()) {
            aodb.setAutoCommit(false);
            var sql = new StringBuilder("INSERT INTO CMINMSGS (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES ");
            for (int i = 0; i < rows; i++) {
                sql.append(i == 0 ? "" : ", ").append("(?, NOW(3))");
            }
            var ids = new ArrayList<Long>();
            try (var insert = aodb.prepareStatement(sql.toString(), Statement.RETURN_GENERATED_KEYS)) {
                for (int i = 0; i < rows; i++) {
                    long n = stormRow.incrementAndGet();
                    // SEQNs of their own: the traffic's SisMessages counts from the same start, and a storm row
                    // sharing a traffic schedule's SNDR|TYPE|STYP|SEQN would end SKIPPED(duplicate-of:...).
                    insert.setString(i + 1, sis.withSeqn(sis.schedule(fltr(Long.toString(8001 + n % 10), "11MAR240835",
                            "STND", "X" + n)), STORM_SEQN_BASE + n));
                }
                insert.executeUpdate();
                try (var keys = insert.getGeneratedKeys()) {
                    while (keys.next()) {
                        ids.add(keys.getLong(1));
                    }
                }
            }
            Thread.sleep(hold.toMillis());
            if (commit) {
                aodb.commit();
            } else {
                aodb.rollback();
            }
            return ids;
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    private Thread writer(String name, Work work) {
        var thread = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "aodb-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private long maxMailboxId() throws SQLException {
        try (var connection = pipeline.aodbConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select max(CMINMSGS_ID) from CMINMSGS")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static String join(List<Long> ids) {
        return ids.isEmpty() ? "-1" : String.join(",", ids.stream().map(String::valueOf).toList());
    }

    /**
     * Samples {@code INBOX_CURSOR} every 20 ms on a direct connection: while a gap holds intake
     * ({@code HOLE_SINCE} set), its age is the stall so far. Keeps the longest, and how many gaps it saw.
     */
    private final class StallWatch {
        private final Thread thread = new Thread(this::run, "stall-watch");
        private volatile boolean stopping;
        private volatile Duration longest = Duration.ZERO;
        private volatile int gaps;

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            stopping = true;
            thread.join(5_000);
        }

        Duration longest() {
            return longest;
        }

        int gaps() {
            return gaps;
        }

        private void run() {
            Instant lastHole = null;
            while (!stopping) {
                try (var connection = pipeline.postgres.dataSource().getConnection();
                     var statement = connection.createStatement()) {
                    while (!stopping) {
                        try (var rows = statement.executeQuery("select hole_since from inbox_cursor")) {
                            var since = rows.next() ? rows.getTimestamp(1) : null;
                            if (since != null) {
                                var hole = since.toInstant();
                                if (!hole.equals(lastHole)) {
                                    gaps++;
                                    lastHole = hole;
                                }
                                var age = Duration.between(hole, Instant.now());
                                if (age.compareTo(longest) > 0) {
                                    longest = age;
                                }
                            }
                        }
                        Thread.sleep(20);
                    }
                } catch (SQLException e) {
                    // sample again
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
