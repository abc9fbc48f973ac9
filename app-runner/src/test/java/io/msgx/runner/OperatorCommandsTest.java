package io.msgx.runner;

import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/** The operator's commands against real servers, run in-process through the same entry point as the jar. */
class OperatorCommandsTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();

    @Test
    void run_refuses_a_schema_it_does_not_know() throws Exception {
        var config = config("msgx_never_migrated_" + System.nanoTime());
        var err = new ByteArrayOutputStream();
        int code = withStreams(new ByteArrayOutputStream(), err, () -> Main.execute("run", "-c", config.toString()));
        assertThat(code).isEqualTo(Main.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("has no msgexchange tables: run 'migrate' first");
    }

    @Test
    void dead_list_message_show_skip_and_a_bad_key_each_answer_with_their_exit_code() throws Exception {
        var clock = SettableClock.atExampleDay();
        long broken = services.deliver("<MSG><META>");
        long stuck = services.deliver(sis.other("ZZZZ", "X"));
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var config = config(services.postgres.schema());

        var out = new ByteArrayOutputStream();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("dead", "list", "--json", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"msgId\" : " + broken, "\"errorClass\" : \"MALFORMED\"");

        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("message", "show", Long.toString(stuck), "--json", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"state\" : \"FAILED\"", "\"errorClass\" : \"UNSUPPORTED\"");

        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("skip", Long.toString(stuck),
                "--reason", "unknown type, agreed with AODB", "--operator", "ops", "-c", config.toString()))).isZero();
        assertThat(services.store(clock).queue().find(stuck).orElseThrow().lastError())
                .isEqualTo("operator-skip by ops: unknown type, agreed with AODB");
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("skip", Long.toString(stuck),
                "--reason", "again", "--operator", "ops", "-c", config.toString()))).isEqualTo(Main.REFUSED);
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("message", "show", "999999", "-c", config.toString()))).isEqualTo(Main.NOT_FOUND);

        var typo = Files.createTempFile("msgx", ".properties");
        Files.writeString(typo, Files.readString(config) + "\nmsgx.pipline.claim-batch=5\n");
        var err = new ByteArrayOutputStream();
        assertThat(withStreams(out, err, () -> Main.execute("status", "-c", typo.toString()))).isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("msgx.pipline.claim-batch", "not a key this build knows");
    }

    @Test
    void status_shows_the_fifo_head_and_what_holds_it_and_exits_0_healthy_1_degraded_2_down() throws Exception {
        var clock = new SettableClock(Instant.now());
        var config = config(services.postgres.schema());
        var harness = new PipelineHarness(services.mailbox(), services.store(clock), clock);
        harness.runUntilQuiet();
        var out = new ByteArrayOutputStream();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("status", "--json", "-c", config.toString()))).as("nothing open: healthy").isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"health\" : \"HEALTHY\"", "\"head\" : null");

        long stuck = services.deliver(sis.other("ZZZZ", "X"));
        long behind = services.deliver(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
        harness.runUntilQuiet();

        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("status", "--json", "-c", config.toString()))).as("held head: degraded").isEqualTo(1);
        var json = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", "");
        assertThat(json).contains("\"health\":\"DEGRADED\"", "\"msgId\":" + stuck, "\"kind\":\"ZZZZ-X\"",
                "\"state\":\"FAILED\"", "\"errorClass\":\"UNSUPPORTED\"", "\"attempts\":1",
                "\"blockedBy\":\"unsupported\"", "FIFOheadblockedbyunsupported");
        assertThat(json).doesNotContain("\"msgId\":" + behind);

        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("status", "-c", config.toString()))).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(stuck + " ZZZZ-X FAILED(UNSUPPORTED), 1 attempt, next at",
                "blocked by unsupported", "last error         no processor handles ZZZZ-X", "health               DEGRADED");

        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("failed", "list", "--json", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", ""))
                .contains("\"failed\":[{\"msgId\":" + stuck + ",\"errorClass\":\"UNSUPPORTED\",\"attempts\":1");

        var down = Files.createTempFile("msgx", ".properties");
        Files.writeString(down, Files.readString(config).replace(io.msgx.adapter.pg.PgTestDatabase.URL,
                "jdbc:postgresql://127.0.0.1:1/nowhere"));
        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("status", "--json", "-c", down.toString()))).as("store unreachable: down").isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"health\" : \"DOWN\"");
    }

    @Test
    void message_show_lists_what_the_message_carries_that_the_model_does_not_map() throws Exception {
        var clock = SettableClock.atExampleDay();
        long id = services.deliver(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405"))
                .replace("<FLNO>", "<XTRA>new</XTRA><FLNO QUAL=\"IATA\">"));
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var config = config(services.postgres.schema());

        var out = new ByteArrayOutputStream();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("message", "show", Long.toString(id), "--json", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"state\" : \"SUCCEEDED\"",
                "\"unmapped\" : [ \"FLTR/XTRA\", \"FLTR/FLNO/@QUAL\" ]");
    }

    @Test
    void request_schedule_writes_an_rqfd_to_coutmsgs_and_records_it_sent() throws Exception {
        var clock = SettableClock.atExampleDay();
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var config = config(services.postgres.schema());
        var out = new ByteArrayOutputStream();

        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("request", "schedule",
                "--day", "2024-03-12", "--json", "-c", config.toString()))).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"status\" : \"SENT\"", "\"coverDay\" : \"2024-03-12\"");
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement();
             var rows = sql.executeQuery("SELECT COUTMSGS_CLOB_MSG, ROUTINGID FROM COUTMSGS")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).contains("<TYPE>RQFD</TYPE>", "<STDB>12MAR240000</STDB>");
            assertThat(rows.getString(2)).isEqualTo("AODB");
            assertThat(rows.next()).as("written once").isFalse();
        }
        assertThat(services.countInPostgres("select count(*) from req_track where status = 'SENT'")).isEqualTo(1);
    }

    @Test
    void request_schedule_from_a_time_without_an_end_writes_an_rqfd_with_only_stdb() throws Exception {
        var clock = SettableClock.atExampleDay();
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var config = config(services.postgres.schema());
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();

        assertThat(withStreams(out, err, () -> Main.execute("request", "schedule", "-c", config.toString())))
                .as("neither --day nor a window").isEqualTo(Main.USAGE);
        assertThat(withStreams(out, err, () -> Main.execute("request", "schedule", "--day", "2024-03-12", "--to",
                "2024-03-12T06:00", "-c", config.toString()))).as("both").isEqualTo(Main.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Give either --day, or --from and/or --to");
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("request", "schedule",
                "--from", "2024-03-12T06:00", "--json", "-c", config.toString()))).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"status\" : \"SENT\"",
                "\"coverDay\" : \"2024-03-12\"", "\"windowEnd\" : null");
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement();
             var rows = sql.executeQuery("SELECT COUTMSGS_CLOB_MSG FROM COUTMSGS")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?><MSG>")
                    .contains("<RQFD><STDB>12MAR240600</STDB></RQFD>");
            assertThat(rows.next()).as("written once").isFalse();
        }
        assertThat(services.countInPostgres("select count(*) from req_track where status = 'SENT' and window_end is null"
                + " and window_start is not null")).isEqualTo(1);
    }

    @Test
    void reference_types_list_and_show_print_the_stored_documents_and_request_reference_asks_for_a_v2_type()
            throws Exception {
        var clock = SettableClock.atExampleDay();
        services.deliver("<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20240311060000</DTTM><TYPE>ABDG</TYPE>"
                + "<STYP>DNLD</STYP></META><RECS>1</RECS><ABDG><ABCD>AB01</ABCD><CDSC>一号廊桥</CDSC><STND>201</STND>"
                + "<STND>202</STND></ABDG></MSG>");
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();
        var config = config(services.postgres.schema());
        var out = new ByteArrayOutputStream();

        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("reference", "types", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"ABDG\" : 1");
        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("reference", "show", "ABDG", "AB01", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", ""))
                .contains("\"record\":{\"ABCD\":\"AB01\",\"CDSC\":\"一号廊桥\",\"STND\":[\"201\",\"202\"]}");
        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("reference", "list", "ABDG", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"key\" : \"AB01\"");
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("reference", "show", "ABDG", "nope", "-c", config.toString()))).isEqualTo(Main.NOT_FOUND);

        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("request", "reference",
                "--type", "GLST", "-c", config.toString()))).isZero();
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement();
             var rows = sql.executeQuery("SELECT COUTMSGS_CLOB_MSG FROM COUTMSGS")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).contains("<TYPE>RQRD</TYPE><STYP>GLST</STYP>", "<RQRD><RTYP>GLST</RTYP></RQRD>");
        }
    }

    @Test
    void events_dead_resend_purge_and_rearm_work_the_dead_letter_queue_with_their_exit_codes() throws Exception {
        var clock = SettableClock.atExampleDay();
        var store = services.store(clock);
        long first = notify(store, clock, "1001", 1);
        long second = notify(store, clock, "1001", 2);
        long other = notify(store, clock, "1003", 1);
        store.inTransaction(tx -> tx.projections().upsertProjection(new io.msgx.pipeline.record.OutboxEvent(
                io.msgx.pipeline.record.OutboxTarget.KAFKA_SCHD, io.msgx.domain.flight.FlightId.of("1002"),
                io.msgx.pipeline.record.OutboxEvent.EventType.UPSERT, 7, 1, "{\"v\":7}", clock.instant())));
        for (long id : new long[]{first, other}) {
            store.deadLetters().recordDeliveryFailure(id, "RecordTooLargeException: too large", clock.instant(), true,
                    clock.instant());
        }
        store.projections().markProjectionsSent(java.util.Map.of(io.msgx.domain.flight.FlightId.of("1002"), 7L),
                clock.instant());
        var config = config(services.postgres.schema());

        var out = new ByteArrayOutputStream();
        assertThat(withStreams(out, new ByteArrayOutputStream(),
                () -> Main.execute("events", "dead", "--json", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"eventId\" : " + first, "\"eventId\" : " + other,
                "\"target\" : \"KAFKA:msg\"", "\"key\" : \"1001\"", "\"version\" : 1", "\"attempts\" : 1",
                "\"lastError\" : \"RecordTooLargeException: too large\"").doesNotContain("\"eventId\" : " + second);

        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "resend",
                Long.toString(first), "--operator", "ops", "-c", config.toString()))).isZero();
        var resent = store.outboxQueries().pending(io.msgx.pipeline.record.OutboxTarget.KAFKA_MSG, 10);
        assertThat(resent).extracting(io.msgx.pipeline.record.OutboxEntry::eventId).as("resent, keeping its EVENT_ID")
                .containsExactly(first, second);
        assertThat(resent.get(0).attempts()).isZero();
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "resend",
                Long.toString(first), "--operator", "ops", "-c", config.toString())))
                .as("no longer DEAD").isEqualTo(Main.REFUSED);
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "resend", "--all",
                Long.toString(other), "--operator", "ops", "-c", config.toString())))
                .as("IDs or --all, not both").isEqualTo(Main.USAGE);

        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "purge",
                Long.toString(second), "--operator", "ops", "-c", config.toString())))
                .as("a pending event is not purged").isEqualTo(Main.REFUSED);
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "purge",
                Long.toString(other), "--operator", "ops", "-c", config.toString()))).isZero();
        assertThat(store.deadLetters().deadEvents(10)).isEmpty();
        assertThat(store.outboxQueries().pending(io.msgx.pipeline.record.OutboxTarget.KAFKA_MSG, 10)).hasSize(2);

        out.reset();
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "rearm", "1002",
                "--operator", "ops", "--json", "-c", config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"version\" : 7", "\"status\" : \"PENDING\"");
        assertThat(store.outboxQueries().pending(io.msgx.pipeline.record.OutboxTarget.KAFKA_SCHD, 10)).singleElement()
                .satisfies(row -> assertThat(row.event().stateVersion()).isEqualTo(7));
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "rearm", "9999",
                "--operator", "ops", "-c", config.toString()))).isEqualTo(Main.REFUSED);
        assertThat(withStreams(out, new ByteArrayOutputStream(), () -> Main.execute("events", "rearm", "1002",
                "-c", config.toString()))).as("who asks is required").isEqualTo(Main.USAGE);
    }

    private static long notify(io.msgx.pipeline.port.PipelineStore store, SettableClock clock, String flid,
                               long version) {
        return store.inTransaction(tx -> tx.notifications().append(new io.msgx.pipeline.record.OutboxEvent(
                io.msgx.pipeline.record.OutboxTarget.KAFKA_MSG, io.msgx.domain.flight.FlightId.of(flid),
                io.msgx.pipeline.record.OutboxEvent.EventType.UPSERT, version, 1,
                "{\"flid\":\"" + flid + "\",\"stateVersion\":" + version + "}", clock.instant())));
    }

    private Path config(String schema) throws Exception {
        var file = Files.createTempFile("msgx", ".properties");
        Files.writeString(file, String.join("\n",
                "msgx.store.url=" + io.msgx.adapter.pg.PgTestDatabase.URL,
                "msgx.store.user=postgres",
                "msgx.store.schema=" + schema,
                "msgx.mailbox.url=" + services.mailboxUrl(),
                "msgx.mailbox.user=root",
                "msgx.kafka.enabled=false"), StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return file;
    }

    /** Run {@code command} with System.out and System.err captured; for the CLI tests of this package. */
    static int withStreams(ByteArrayOutputStream out, ByteArrayOutputStream err,
                                   java.util.function.IntSupplier command) {
        var originalOut = System.out;
        var originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return command.getAsInt();
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }
}
