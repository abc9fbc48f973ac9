package io.msgx.runner;

import io.msgx.pipeline.lifecycle.BackfillJob;
import io.msgx.pipeline.lifecycle.LifecycleSettings;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.cli.Main;
import io.msgx.runner.config.Keys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mailbox status (sis-format §10, D-110) on the real MariaDB mailbox and PostgreSQL store: a row whose
 * {@code CMINMSGS_STATUS} is not accepted ends {@code SKIPPED(status:<value>)} in its FIFO place, unread, marked like
 * every ended row, counted, and shown by {@code message show} and the console; {@code NULL} is a message; an empty
 * {@code msgx.mailbox.accepted-statuses} turns the check off.
 */
class MailboxStatusEndToEndTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();

    @Test
    void an_invalid_row_between_two_valid_ones_ends_skipped_in_its_place_is_marked_and_message_show_says_why()
            throws Exception {
        var clock = new SettableClock(Instant.parse("2024-03-11T00:00:00Z"));
        var store = services.store(clock);
        var schedule = sis.schedule(fltr("1001", "11MAR240835", "STND", "501"));
        long first = services.deliver(sis.schedule(fltr("1000", "11MAR240800")), "VALID");
        long invalid = services.deliver(schedule.replace("<STND>501</STND>", "<STND>999</STND>"), "INVALID");
        long garbage = services.deliver("<MSG><META>garbage, never parsed", "deleted");
        long none = services.deliver(sis.schedule(fltr("1002", "11MAR240900")), null);
        long last = services.deliver(schedule, "VALID");

        new PipelineHarness(services.mailbox(), store, clock).runUntilQuiet();

        assertThat(record(store, invalid).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(store, invalid).lastError()).isEqualTo("status:INVALID");
        assertThat(record(store, invalid).identityKey()).as("no identity bound").isNull();
        assertThat(record(store, garbage).lastError()).as("skipped, not DEAD(MALFORMED)").isEqualTo("status:deleted");
        for (long id : List.of(first, none, last)) {
            assertThat(record(store, id).status()).as("row " + id).isEqualTo(ProcStatus.SUCCEEDED);
        }
        assertThat(services.countInPostgres("select count(*) from flight_schd where flid = '1001' and stnd = '501'"))
                .as("the VALID row with the INVALID row's identity applied, not skipped as its duplicate").isEqualTo(1);

        new BackfillJob(services.mailbox(), store.backfillMarks(), new MessageLifecycleGate(), LifecycleSettings.defaults(),
                true, clock).runOnce();
        assertThat(unmarkedRows()).as("every ended row marked, the skipped ones too").isZero();
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement();
             var rows = sql.executeQuery("SELECT CMINMSGS_STATUS FROM CMINMSGS WHERE CMINMSGS_ID = " + invalid)) {
            rows.next();
            assertThat(rows.getString(1)).as("the status is never written").isEqualTo("INVALID");
        }

        var out = new ByteArrayOutputStream();
        var config = config(services.runnerKeys());
        assertThat(withOut(out, () -> Main.execute("message", "show", Long.toString(invalid), "--json", "-c",
                config.toString()))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"state\" : \"SKIPPED\"",
                "\"reason\" : \"status:INVALID\"", "\"mailboxStatus\" : \"INVALID\"");
    }

    @Test
    void a_running_exchange_counts_the_skip_and_its_console_shows_it_and_an_empty_set_processes_everything()
            throws Exception {
        long invalid = services.deliver(sis.schedule(fltr("1001", "11MAR240835")), "INVALID");
        long valid = services.deliver(sis.schedule(fltr("1002", "11MAR240835")), "VALID");
        try (var running = RunningExchange.start(services.runnerKeys())) {
            var exchange = running.exchange();
            RunningExchange.await("both rows end", 30, () -> ended(exchange.store().queue().find(valid)));
            assertThat(exchange.store().queue().find(invalid).orElseThrow().lastError()).isEqualTo("status:INVALID");
            assertThat(running.get("/console/message?id=" + invalid).body()).contains("id=\"not-a-message\"",
                    "<td id=\"mailbox-status\">INVALID</td>");
            assertThat(running.get("/console/message?id=" + valid).body()).doesNotContain("id=\"not-a-message\"");
            assertThat(running.get("/metrics").body())
                    .contains("msgx_pipeline_status_skips_messages_total{status=\"INVALID\"} 1.0")
                    .contains("msgx_pipeline_messages_ended_total{error_class=\"none\",state=\"SKIPPED\"} 1.0");
        }

        long laterInvalid = services.deliver(sis.schedule(fltr("1003", "11MAR240835")), "INVALID");
        var keys = services.runnerKeys();
        keys.put(Keys.MAILBOX_ACCEPTED_STATUSES, "");
        try (var running = RunningExchange.start(keys)) {
            var exchange = running.exchange();
            RunningExchange.await("the later row ends", 30, () -> ended(exchange.store().queue().find(laterInvalid)));
            assertThat(exchange.store().queue().find(laterInvalid).orElseThrow().status())
                    .as("the check off: an INVALID row is a message").isEqualTo(ProcStatus.SUCCEEDED);
        }
    }

    private static boolean ended(java.util.Optional<ProcRecord> record) {
        return record.map(r -> r.status().isTerminal()).orElse(false);
    }

    private static ProcRecord record(io.msgx.pipeline.port.PipelineStore store, long id) {
        return store.queue().find(id).orElseThrow();
    }

    private long unmarkedRows() throws Exception {
        try (var aodb = services.aodbConnection(); var sql = aodb.createStatement();
             var rows = sql.executeQuery("SELECT COUNT(*) FROM CMINMSGS WHERE CMINMSGS_DATE_PROCESSED IS NULL")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static Path config(Map<String, String> keys) throws Exception {
        var file = Files.createTempFile("msgx", ".properties");
        var lines = new StringBuilder();
        keys.forEach((key, value) -> lines.append(key).append('=').append(value).append('\n'));
        Files.writeString(file, lines, StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return file;
    }

    private static int withOut(ByteArrayOutputStream out, java.util.function.IntSupplier command) {
        var original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            return command.getAsInt();
        } finally {
            System.setOut(original);
        }
    }
}
