package io.msgx.runner;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.audit.Actor;
import io.msgx.pipeline.audit.AuditEntry;
import io.msgx.pipeline.audit.AuditOutcome;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.cli.Main;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operator audit trail on real servers (issue 36, D-137, D-138): every action of the operator API writes exactly
 * one {@code OPERATOR_AUDIT} row, in the transaction of its change, naming who, from where, what on which items and
 * what came of it; a refused action a refused row; a failed one none (and a row the database refuses undoes the
 * action); the CLI's actions are recorded with their host and OS user, and {@code audit} lists the rows.
 */
class OperatorAuditTrailTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();
    private final Actor alice = Actor.console("alice", "10.1.2.3");
    private MsgExchange exchange;

    @AfterEach
    void close() {
        if (exchange != null) {
            exchange.close();
        }
    }

    private MsgExchange exchange(Map<String, String> extra) {
        var keys = new java.util.LinkedHashMap<>(services.runnerKeys());
        keys.putAll(extra);
        exchange = MsgExchange.builder().config(keys).clock(clock).build();
        return exchange;
    }

    private List<OperatorAudit.Stored> rows() {
        return exchange.store().operatorAudit().newestFirst(OperatorAudit.Filter.newest(1000));
    }

    /** Runs {@code action} and returns the one row it wrote (failing if it wrote none or several), at the clock's now. */
    private AuditEntry oneRow(Runnable action) {
        clock.tick(Duration.ofSeconds(1));
        int before = rows().size();
        action.run();
        var after = rows();
        assertThat(after).as("exactly one row per action").hasSize(before + 1);
        var row = after.get(0).entry();
        assertThat(row.at()).isEqualTo(clock.instant());
        return row;
    }

    private long dead(String flid) {
        var store = exchange.store();
        long id = store.inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG,
                FlightId.of(flid), OutboxEvent.EventType.UPSERT, 1, 1, "{\"flid\":\"" + flid + "\"}", clock.instant())));
        store.deadLetters().recordDeliveryFailure(id, "RecordTooLargeException", clock.instant(), true, clock.instant());
        return id;
    }

    @Test
    void every_action_writes_exactly_one_row_with_who_what_where_and_its_outcome() throws Exception {
        long broken = services.deliver("<MSG><META>");
        long stuck = services.deliver(sis.other("ZZZZ", "X"));
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var actions = new OperatorActions(exchange(Map.of()));
        long first = Math.min(broken, stuck);
        long last = Math.max(broken, stuck);

        var replay = oneRow(() -> actions.replay(List.of(stuck, broken), alice));
        assertThat(replay.actor()).isEqualTo(alice);
        assertThat(replay.action()).isEqualTo("replay");
        assertThat(replay.items()).isEqualTo("messages " + first + ", " + last);
        assertThat(replay.outcome()).isEqualTo(AuditOutcome.PARTLY);
        assertThat(replay.result().changed()).isEqualTo(Long.toString(stuck));
        assertThat(replay.result().refused()).isEqualTo(Long.toString(broken));

        var skip = oneRow(() -> actions.skip(stuck, "agreed with the AODB", alice));
        assertThat(skip.action()).isEqualTo("skip");
        assertThat(skip.items()).isEqualTo("message " + stuck);
        assertThat(skip.outcome()).isEqualTo(AuditOutcome.DONE);
        assertThat(skip.result().detail()).isEqualTo("agreed with the AODB");
        assertThat(exchange.store().queue().find(stuck).orElseThrow().lastError()).contains("operator-skip by alice");
        var skipAgain = oneRow(() -> actions.skip(stuck, "again", alice));
        assertThat(skipAgain.outcome()).isEqualTo(AuditOutcome.REFUSED);
        assertThat(skipAgain.result().refused()).isEqualTo("message " + stuck);

        var replayClass = oneRow(() -> assertThatThrownBy(() -> actions.replayClass(ErrorClass.MALFORMED, 100, alice))
                .isInstanceOf(IllegalArgumentException.class));
        assertThat(replayClass.action()).isEqualTo("replay-class");
        assertThat(replayClass.outcome()).isEqualTo(AuditOutcome.REFUSED);
        assertThat(replayClass.items()).isEqualTo("class MALFORMED");
        assertThat(replayClass.result().detail()).contains("msgx.replay.error-classes");

        var reopen = oneRow(() -> actions.reopen(List.of(404L), alice));
        assertThat(reopen.action()).isEqualTo("backfill-reopen");
        assertThat(reopen.outcome()).isEqualTo(AuditOutcome.REFUSED);
        assertThat(reopen.result().refused()).isEqualTo("404");
        var reconcile = oneRow(() -> actions.reconcile(404, "checked by hand", alice));
        assertThat(reconcile.action()).isEqualTo("backfill-reconcile");
        assertThat(reconcile.outcome()).isEqualTo(AuditOutcome.REFUSED);
        assertThat(reconcile.result().detail()).isEqualTo("no abandoned mark");

        long deadOne = dead("1001");
        long deadTwo = dead("1003");
        var resend = oneRow(() -> actions.resendEvents(List.of(deadOne, 9999L), alice));
        assertThat(resend.action()).isEqualTo("events-resend");
        assertThat(resend.outcome()).isEqualTo(AuditOutcome.PARTLY);
        assertThat(resend.result().changed()).isEqualTo(Long.toString(deadOne));
        assertThat(resend.result().refused()).isEqualTo("9999");
        var purge = oneRow(() -> actions.purgeEvents(List.of(deadTwo), alice));
        assertThat(purge.action()).isEqualTo("events-purge");
        assertThat(purge.outcome()).isEqualTo(AuditOutcome.DONE);
        assertThat(exchange.store().deadLetters().deadEvents(10)).isEmpty();
        var resendAll = oneRow(() -> actions.resendAllEvents(alice));
        assertThat(resendAll.action()).isEqualTo("events-resend-all");
        assertThat(resendAll.outcome()).isEqualTo(AuditOutcome.DONE);
        assertThat(resendAll.result().detail()).isEqualTo("no DEAD event");

        exchange.store().inTransaction(tx -> tx.projections().upsertProjection(new OutboxEvent(OutboxTarget.KAFKA_SCHD,
                FlightId.of("1002"), OutboxEvent.EventType.UPSERT, 7, 1, "{\"v\":7}", clock.instant())));
        exchange.store().projections().markProjectionsSent(Map.of(FlightId.of("1002"), 7L), clock.instant());
        var rearm = oneRow(() -> actions.rearmProjection(FlightId.of("1002"), alice));
        assertThat(rearm.action()).isEqualTo("events-rearm");
        assertThat(rearm.items()).isEqualTo("FLID 1002");
        assertThat(rearm.outcome()).isEqualTo(AuditOutcome.DONE);
        assertThat(rearm.result().changed()).contains("v7 PENDING again");
        var rearmAgain = oneRow(() -> actions.rearmProjection(FlightId.of("1002"), alice));
        assertThat(rearmAgain.outcome()).isEqualTo(AuditOutcome.REFUSED);

        var schedule = oneRow(() -> actions.requestSchedule(LocalDate.of(2024, 3, 12), alice));
        var request = exchange.store().requests().pending().isEmpty()
                ? exchange.store().requests().openOf(io.msgx.pipeline.record.RequestKind.SCHEDULE, null).get(0)
                : exchange.store().requests().pending().get(0);
        assertThat(schedule.action()).isEqualTo("request-schedule");
        assertThat(schedule.items()).isEqualTo("day 2024-03-12");
        assertThat(schedule.outcome()).isEqualTo(AuditOutcome.DONE);
        assertThat(schedule.result().changed()).isEqualTo("request " + request.id() + " SEQN " + request.seqn()
                + " registered");
        var reference = oneRow(() -> actions.requestReference("GLST", alice));
        assertThat(reference.action()).isEqualTo("request-reference");
        assertThat(reference.items()).isEqualTo("type GLST");
        assertThat(reference.outcome()).isEqualTo(AuditOutcome.DONE);
        var badType = oneRow(() -> assertThatThrownBy(() -> actions.requestReference("no such!", alice))
                .isInstanceOf(IllegalArgumentException.class));
        assertThat(badType.outcome()).isEqualTo(AuditOutcome.REFUSED);
        assertThat(badType.result().detail()).contains("1 to 16 letters or digits");

        assertThat(rows()).hasSize(14).allSatisfy(row -> assertThat(row.entry().actor()).isEqualTo(alice));
    }

    @Test
    void a_failed_action_leaves_no_row_and_a_row_the_database_refuses_undoes_the_action() throws Exception {
        var actions = new OperatorActions(exchange(Map.of()));
        long deadOne = dead("1001");
        try (var connection = services.storeDataSource().getConnection(); var statement = connection.createStatement()) {
            statement.execute("ALTER TABLE OPERATOR_AUDIT ADD CONSTRAINT CK_TEST_NO_MALLORY CHECK (OPERATOR <> 'mallory')");
        }

        assertThatThrownBy(() -> actions.purgeEvents(List.of(deadOne), Actor.console("mallory", "10.6.6.6")))
                .isInstanceOf(RuntimeException.class);

        assertThat(exchange.store().deadLetters().deadEvents(10)).as("the purge rolled back with its row")
                .extracting(d -> d.eventId()).containsExactly(deadOne);
        assertThat(rows()).isEmpty();
    }

    @Test
    void a_request_in_a_shadow_deployment_is_recorded_refused() {
        var actions = new OperatorActions(exchange(Map.of(Keys.MAILBOX_READ_ONLY, "true")));

        var refused = oneRow(() -> assertThat(actions.requestReference("GLST", alice)).isEmpty());

        assertThat(refused.action()).isEqualTo("request-reference");
        assertThat(refused.outcome()).isEqualTo(AuditOutcome.REFUSED);
        assertThat(refused.result().detail()).contains("msgx.mailbox.read-only=true");
    }

    @Test
    void the_cli_records_its_host_and_os_user_and_audit_lists_the_rows_newest_first() throws Exception {
        long stuck = services.deliver(sis.other("ZZZZ", "X"));
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var config = config();
        var out = new ByteArrayOutputStream();

        assertThat(run(out, "skip", Long.toString(stuck), "--reason", "agreed", "--operator", "ops", "-c", config))
                .isZero();
        assertThat(run(out, "events", "purge", "9999", "--operator", "bob", "-c", config)).isEqualTo(Main.REFUSED);

        exchange(Map.of());
        var user = System.getProperty("user.name");
        assertThat(rows()).extracting(row -> row.entry().actor()).allSatisfy(actor -> {
            assertThat(actor.channel()).isEqualTo(Actor.Channel.CLI);
            assertThat(actor.source()).startsWith("cli@").endsWith(" (os user " + user + ")");
        }).extracting(Actor::name).containsExactly("bob", "ops");

        out.reset();
        assertThat(run(out, "audit", "--json", "-c", config)).isZero();
        var json = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", "");
        assertThat(json).contains("\"operator\":\"bob\",\"channel\":\"cli\"", "\"action\":\"events-purge\"",
                "\"items\":\"events9999\"", "\"outcome\":\"REFUSED\"", "\"refused\":\"9999\"");
        assertThat(json.indexOf("\"operator\":\"bob\"")).as("newest first").isLessThan(json.indexOf("\"operator\":\"ops\""));

        out.reset();
        assertThat(run(out, "audit", "--operator", "ops", "--action", "skip", "-c", config)).isZero();
        var text = out.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).singleElement().asString().contains(" ops  cli (cli@", " skip  message " + stuck,
                "DONE  changed: message " + stuck + " SKIPPED", "(agreed)");

        out.reset();
        assertThat(run(out, "audit", "--since", "1d", "--limit", "1", "-c", config)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).singleElement().asString().contains(" bob ");
        assertThat(run(out, "audit", "--since", "yesterday-ish", "-c", config)).isEqualTo(Main.USAGE);
    }

    private String config() throws Exception {
        var file = Files.createTempFile("msgx", ".properties");
        var lines = new StringBuilder();
        services.runnerKeys().forEach((key, value) -> lines.append(key).append('=').append(value).append('\n'));
        Files.writeString(file, lines, StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return file.toString();
    }

    private static int run(ByteArrayOutputStream out, String... args) {
        return OperatorCommandsTest.withStreams(out, new ByteArrayOutputStream(), () -> Main.execute(args));
    }

}
