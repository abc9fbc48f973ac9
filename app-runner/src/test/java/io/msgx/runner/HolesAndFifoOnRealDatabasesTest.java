package io.msgx.runner;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.inbox.PollResult;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.pump.TickResult;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.FailingBeforeCommitStore;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static io.msgx.adapter.mysql.TestMailboxDatabase.insertInbound;
import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * FIFO and gaps for real: MariaDB hands out auto-increment IDs at insert and shows rows at commit, so a
 * rolled-back insert leaves a permanent gap and an open transaction makes a smaller ID appear late.
 */
@Slow
class HolesAndFifoOnRealDatabasesTest {

    private static final Duration MAX_COMMIT_DELAY = Duration.ofSeconds(30);

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();

    private PipelineHarness pipeline(PipelineStore store) {
        return new PipelineHarness(services.mailbox(), store, clock, new InboxSettings(200, MAX_COMMIT_DELAY),
                ProcessingSettings.defaults());
    }

    @Test
    void a_rolled_back_insert_leaves_a_permanent_hole_released_after_max_commit_delay() throws Exception {
        try (var aodb = services.aodbConnection()) {
            aodb.setAutoCommit(false);
            insertInbound(aodb, sis.schedule(fltr("1", "11MAR240835")));
            aodb.rollback();
        }
        long after = services.deliver(sis.schedule(fltr("2", "11MAR240900")));
        var store = services.store(clock);
        var pipeline = pipeline(store);

        assertThat(pipeline.poller.pollOnce()).isInstanceOf(PollResult.HeldAtHole.class);
        assertThat(store.queue().find(after)).as("nothing after a young gap is enqueued").isEmpty();
        assertThat(services.countInPostgres("select count(*) from inbox_cursor where hole_since is not null")).isEqualTo(1);

        clock.tick(MAX_COMMIT_DELAY);
        assertThat(pipeline.poller.pollOnce()).isEqualTo(new PollResult.HoleReleased(after - 1, 1, after - 1));
        pipeline.runUntilQuiet();

        assertThat(record(store, after).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(store.inboxCursor().load().watermark()).isEqualTo(after);
        assertThat(services.countInPostgres("select count(*) from proc_state")).isEqualTo(1);
    }

    @Test
    void a_smaller_id_committed_late_is_processed_first() throws Exception {
        var store = services.store(clock);
        var pipeline = pipeline(store);
        try (var slow = services.aodbConnection()) {
            slow.setAutoCommit(false);
            long first = insertInbound(slow, sis.schedule(fltr("77", "11MAR240835", "STND", "1")));
            long second = services.deliver(sis.flop(FlopSubtype.STND, "77", patch("STND", "2")));
            assertThat(second).isGreaterThan(first);

            assertThat(pipeline.poller.pollOnce()).isEqualTo(new PollResult.HeldAtHole(0, 0, first, clock.instant()));
            assertThat(pipeline.tick()).isEqualTo(new TickResult.Idle());

            clock.tick(Duration.ofSeconds(5));
            slow.commit();
            pipeline.runUntilQuiet();

            var records = List.of(record(store, first), record(store, second));
            assertThat(records).extracting(ProcRecord::status).containsExactly(ProcStatus.SUCCEEDED, ProcStatus.SUCCEEDED);
            var flight = flight(store, "77");
            assertThat(flight.fields().valueOf(FlightField.STND)).isEqualTo("2");
            assertThat(flight.stateVersion()).isEqualTo(2);
            assertThat(flight.lastMsgId()).isEqualTo(second);
            var notified = store.inTransaction(tx -> tx.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 10));
            assertThat(notified).extracting(e -> e.event().msgId()).containsExactly(first, second);
        }
    }

    @Test
    void a_failure_after_the_flight_write_and_before_commit_leaves_no_trace() throws Exception {
        var store = new FailingBeforeCommitStore(services.store(clock));
        var pipeline = pipeline(store);
        long id = services.deliver(sis.schedule(fltr("88", "11MAR240835", "STND", "9"),
                fltr("89", "11MAR240835", "MAID", "88")));
        store.failNext(1);

        pipeline.runUntilQuiet();

        assertThat(services.countInPostgres("select count(*) from flight_schd")).isZero();
        assertThat(services.countInPostgres("select count(*) from flight_gtdt")).isZero();
        assertThat(services.countInPostgres("select count(*) from msg_event")).isZero();
        var failed = record(store, id);
        assertThat(failed.status()).isEqualTo(ProcStatus.FAILED);
        assertThat(failed.errorClass()).isEqualTo(ErrorClass.INTERNAL);
        assertThat(failed.backfillNextAt()).as("no backfill intent without a terminal state").isNull();

        clock.tick(Duration.ofSeconds(5));
        pipeline.runUntilQuiet();
        assertThat(record(store, id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(services.countInPostgres("select count(*) from flight_schd")).isEqualTo(2);
        assertThat(services.countInPostgres("select count(*) from msg_event where target = 'KAFKA:msg'")).isEqualTo(2);
    }

    @Test
    void an_unreachable_mailbox_is_not_an_empty_one() throws Exception {
        services.deliver(sis.schedule(fltr("90", "11MAR240835")));
        var unreachable = new io.msgx.adapter.mysql.JdbcMailbox(closedPortDataSource(),
                io.msgx.adapter.mysql.MailboxSchema.defaults(), java.time.ZoneId.of("Asia/Shanghai"), 2);
        var store = services.store(clock);
        var poller = new io.msgx.pipeline.inbox.InboxPoller(unreachable, store, clock, InboxSettings.defaults(),
                io.msgx.pipeline.port.PipelineMetrics.NONE);

        assertThat(poller.pollOnce()).isInstanceOf(PollResult.MailboxUnavailable.class);
        assertThat(store.inboxCursor().load().watermark()).isZero();
        assertThat(services.countInPostgres("select count(*) from proc_state")).isZero();
    }

    private static javax.sql.DataSource closedPortDataSource() {
        var ds = new com.mysql.cj.jdbc.MysqlDataSource();
        ds.setURL("jdbc:mysql://127.0.0.1:1/none?connectTimeout=1000");
        ds.setUser("root");
        return ds;
    }

    private static ProcRecord record(PipelineStore store, long id) {
        return store.queue().find(id).orElseThrow();
    }

    private static FlightState flight(PipelineStore store, String flid) {
        return store.inTransaction(tx -> tx.flights().find(List.of(FlightId.of(flid)))).get(0);
    }
}
