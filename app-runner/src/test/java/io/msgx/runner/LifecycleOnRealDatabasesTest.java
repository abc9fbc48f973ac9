package io.msgx.runner;

import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.lifecycle.BackfillJob;
import io.msgx.pipeline.lifecycle.BackfillResult;
import io.msgx.pipeline.lifecycle.FlightHistoryCleanup;
import io.msgx.pipeline.lifecycle.FlightHistorySettings;
import io.msgx.pipeline.lifecycle.LifecycleSettings;
import io.msgx.pipeline.lifecycle.MarkSettlement;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.lifecycle.ProcStateArchiver;
import io.msgx.pipeline.lifecycle.RecordArchiving;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/** Backfill, replay, archive and flight history on the real MariaDB mailbox and PostgreSQL store. */
class LifecycleOnRealDatabasesTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SettableClock clock = new SettableClock(Instant.parse("2024-03-11T00:00:00Z"));
    private final SisMessages sis = new SisMessages();
    private final LifecycleSettings settings = LifecycleSettings.defaults();
    private final MessageLifecycleGate gate = new MessageLifecycleGate();

    @Test
    void each_backfill_outcome_on_the_real_mailbox() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        long written = services.deliver(sis.schedule(fltr("1", "11MAR240835")));
        long marked = services.deliver(sis.schedule(fltr("2", "11MAR240835")));
        long deleted = services.deliver(sis.schedule(fltr("3", "11MAR240835")));
        pipeline.runUntilQuiet();
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement()) {
            sql.executeUpdate("UPDATE CMINMSGS SET CMINMSGS_DATE_PROCESSED = '2024-03-10 12:00:00.000' WHERE CMINMSGS_ID = " + marked);
            sql.executeUpdate("DELETE FROM CMINMSGS WHERE CMINMSGS_ID = " + deleted);
        }

        var results = new BackfillJob(services.mailbox(), store.backfillMarks(), gate, settings, true, clock).runOnce();

        assertThat(results).containsExactlyInAnyOrder(new BackfillResult.Written(written),
                new BackfillResult.AlreadyMarked(marked), new BackfillResult.RowMissing(deleted));
        assertThat(processedMark(written)).isNotNull();
        assertThat(processedMark(marked)).as("the earlier mark is kept").isEqualTo("2024-03-10 12:00:00.000");
        assertThat(record(store, deleted).backfillAbandonedReason()).isEqualTo("MISSING_ROW");
        assertThat(record(store, deleted).backfillAt()).isNull();
        assertThat(record(store, written).backfillAt()).isEqualTo(clock.instant());
    }

    @Test
    void a_mailbox_down_until_past_R_ends_in_transient_deadline_and_an_operator_can_reopen() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        long id = services.deliver(sis.schedule(fltr("1", "11MAR240835")));
        pipeline.runUntilQuiet();
        var down = new JdbcMailbox(closedPort(), MailboxSchema.defaults(), ZoneId.of("Asia/Shanghai"), 2);
        var unreachable = new BackfillJob(down, store.backfillMarks(), gate, settings, true, clock);

        var first = unreachable.runOnce();
        assertThat(first).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                failure -> assertThat(failure.abandoned()).isFalse());
        assertThat(record(store, id).backfillAttempts()).isEqualTo(1);
        assertThat(record(store, id).backfillFailingSince()).as("R counts from the first failure (D-104)")
                .isEqualTo(clock.instant());

        clock.tick(settings.backfillOverdue());
        var last = unreachable.runOnce();
        assertThat(last).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                failure -> assertThat(failure.abandoned()).isTrue());
        assertThat(record(store, id).backfillAbandonedReason()).isEqualTo("TRANSIENT_DEADLINE");
        assertThat(processedMark(id)).as("abandoned is not marked").isNull();

        assertThat(new MarkSettlement(store).reopen(List.of(id), clock.instant())).containsExactly(id);
        assertThat(record(store, id).backfillFailingSince()).as("a reopened mark starts its failures anew").isNull();
        var reachable = new BackfillJob(services.mailbox(), store.backfillMarks(), gate, settings, true, clock);
        assertThat(reachable.runOnce()).containsExactly(new BackfillResult.Written(id));
        assertThat(processedMark(id)).isNotNull();
    }

    @Test
    void replay_moves_only_whitelisted_classes_keeps_the_identity_and_wins_a_race_with_the_archiver() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        long unsupported = services.deliver(sis.other("ZZZZ", "X"));
        pipeline.runUntilQuiet();
        for (int i = 0; i < 4; i++) {
            clock.tick(Duration.ofMinutes(10));
            pipeline.runUntilQuiet();
        }
        long malformed = services.deliver("<MSG><META>");
        pipeline.runUntilQuiet();
        new BackfillJob(services.mailbox(), store.backfillMarks(), gate, settings, true, clock).runOnce();
        assertThat(record(store, unsupported).errorClass()).isEqualTo(ErrorClass.EXHAUSTED);
        var identity = record(store, unsupported).identityKey();

        clock.tick(settings.archiveAfter().plusSeconds(1));
        var listed = store.messageArchive().archiveCandidates(clock.instant().minus(settings.archiveAfter()), 10);
        assertThat(listed).extracting(ProcRecord::msgId).containsExactly(unsupported, malformed);

        var replay = new ReplayService(store.replays(), gate, ReplayService.DEFAULT_REPLAYABLE, clock)
                .replay(List.of(unsupported, malformed), "ops@airport");
        assertThat(replay.replayed()).containsExactly(unsupported);
        assertThat(replay.refused()).containsExactly(malformed);
        assertThat(record(store, unsupported).identityKey()).isEqualTo(identity);
        assertThat(record(store, unsupported).attempts()).isZero();

        assertThat(new RecordArchiving(store).archive(listed.get(0), clock.instant())).as("the replay won").isFalse();
        assertThat(new RecordArchiving(store).archive(listed.get(1), clock.instant())).isTrue();
        assertThat(record(store, unsupported).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(services.countInPostgres("select count(*) from proc_state_hst where msg_id = " + unsupported)).isZero();
        assertThat(services.countInPostgres("select count(*) from proc_state_hst where msg_id = " + malformed)).isEqualTo(1);
    }

    @Test
    void an_archived_message_still_refuses_its_duplicate() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        var xml = sis.schedule(fltr("1", "11MAR240835"));
        long original = services.deliver(xml);
        pipeline.runUntilQuiet();
        new BackfillJob(services.mailbox(), store.backfillMarks(), gate, settings, true, clock).runOnce();
        clock.tick(settings.archiveAfter().plusSeconds(1));
        assertThat(new ProcStateArchiver(store, settings, 100, clock).runOnce().archived()).isEqualTo(1);
        assertThat(record(store, original).status()).isEqualTo(ProcStatus.ARCHIVED);

        long duplicate = services.deliver(xml);
        pipeline.runUntilQuiet();

        assertThat(record(store, duplicate).lastError()).isEqualTo("duplicate-of:" + original);
        assertThat(services.countInPostgres("select state_version from flight_schd where flid = '1'")).isEqualTo(1);
    }

    @Test
    void a_failing_archive_of_an_ended_flight_deletes_zero_rows() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        services.deliver(sis.schedule(fltr("1", "11MAR240835"), fltr("2", "11MAR240835")));
        services.deliver(sis.fdel("1"));
        services.deliver(sis.fdel("2"));
        pipeline.runUntilQuiet();
        try (var connection = services.postgres.dataSource().getConnection(); var sql = connection.createStatement()) {
            sql.executeUpdate("insert into flight_hst (flid, state_version, operation_day, state, snapshot, archived_at) "
                    + "values ('1', 2, date '2024-03-11', 'DELETED', '{}', now())");
        }
        clock.tick(Duration.ofDays(5));
        var cleanup = new FlightHistoryCleanup(store, new FlightStateEngine(EngineSettings.defaults()),
                OperationDayRule.defaults(), FlightHistorySettings.defaults(), clock);

        var round = cleanup.runOnce();

        assertThat(round.failed()).isEqualTo(1);
        assertThat(round.archived()).isEqualTo(1);
        assertThat(services.countInPostgres("select count(*) from flight_schd where flid = '1'")).as("zero rows deleted")
                .isEqualTo(1);
        assertThat(services.countInPostgres("select count(*) from flight_schd where flid = '2'")).isZero();
        assertThat(services.countInPostgres("select count(*) from flight_hst where flid = '2'")).isEqualTo(1);
    }

    private static javax.sql.DataSource closedPort() {
        var ds = new com.mysql.cj.jdbc.MysqlDataSource();
        ds.setURL("jdbc:mysql://127.0.0.1:1/none?connectTimeout=1000");
        ds.setUser("root");
        return ds;
    }

    private String processedMark(long id) throws Exception {
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement();
             var rows = sql.executeQuery("SELECT DATE_FORMAT(CMINMSGS_DATE_PROCESSED, '%Y-%m-%d %H:%i:%s.%f') FROM CMINMSGS "
                     + "WHERE CMINMSGS_ID = " + id)) {
            rows.next();
            var text = rows.getString(1);
            return text == null ? null : text.substring(0, 23);
        }
    }

    private static ProcRecord record(PipelineStore store, long id) {
        return store.queue().find(id).orElseThrow();
    }
}
