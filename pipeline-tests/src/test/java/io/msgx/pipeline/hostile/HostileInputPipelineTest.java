package io.msgx.pipeline.hostile;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.codec.CodecLimits;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.item;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static io.msgx.pipeline.testing.SisMessages.withList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Each named attack through the whole pipeline (mailbox → poller → pump → processors → store): the message ends
 * {@code DEAD(MALFORMED)} at its first attempt with a reason that says what was wrong, quickly and without
 * allocating what the attack asks for, and the valid message behind it is still processed (FIFO does not stall).
 * The same attacks against the codec alone, with the exact reasons, are in {@code codec.HardeningTest} and
 * {@code codec.MalformedInputTest}; this class proves the pipeline records them.
 */
class HostileInputPipelineTest {

    /** Far below what any of the attacks would need if it worked (a billion laughs expands to gigabytes). */
    private static final long ALLOCATION_BUDGET = 32L * 1024 * 1024;
    private static final Duration TIME_BUDGET = Duration.ofSeconds(30);
    private static final String BODY_WITH_ENTITY = "<FLOP><FLID>1001</FLID><REMC>&xxe;</REMC></FLOP></MSG>";

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);
    private final SisMessages sis = new SisMessages();
    private final AtomicLong seqn = new AtomicLong(700_000);

    // ------------------------------------------------------------------ XXE

    @Test
    void an_external_entity_is_refused_and_the_file_is_never_read(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-4711");
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE MSG [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]><MSG>"
                + meta("FLOP", "REMC") + BODY_WITH_ENTITY;

        var dead = processWithFollower(xxe);

        assertDeadMalformed(dead, "DOCTYPE not allowed");
        assertThat(everythingStored()).doesNotContain("TOP-SECRET-4711");
    }

    @Test
    void an_external_dtd_is_refused_without_being_fetched() throws Exception {
        try (var server = listeningServer()) {
            String url = "http://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort() + "/evil.dtd";

            var dead = processWithFollower("<!DOCTYPE MSG SYSTEM \"" + url + "\"><MSG>" + meta("FLOP", "STND")
                    + "<FLOP><FLID>1001</FLID><STND>1</STND></FLOP></MSG>");

            assertDeadMalformed(dead, "DOCTYPE not allowed");
            assertThat(server.accept()).as("nobody connected to fetch the DTD").isNull();
        }
    }

    @Test
    void a_parameter_entity_is_refused_without_being_fetched() throws Exception {
        try (var server = listeningServer()) {
            String url = "http://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort() + "/p.dtd";

            var dead = processWithFollower("<!DOCTYPE MSG [<!ENTITY % remote SYSTEM \"" + url + "\"> %remote;]><MSG>"
                    + meta("FLOP", "REMC") + BODY_WITH_ENTITY);

            assertDeadMalformed(dead, "DOCTYPE not allowed");
            assertThat(server.accept()).as("nobody connected to fetch the parameter entity").isNull();
        }
    }

    @Test
    void an_undeclared_entity_without_a_doctype_is_not_well_formed() {
        var dead = processWithFollower("<MSG>" + meta("FLOP", "REMC") + BODY_WITH_ENTITY);

        assertDeadMalformed(dead, "not well-formed XML: ");
        assertThat(dead.lastError()).contains("xxe");
    }

    // ------------------------------------------------------------------ entity bombs

    @Test
    void a_billion_laughs_is_refused_before_any_expansion() {
        var dtd = new StringBuilder("<!DOCTYPE MSG [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        String bomb = dtd + "]><MSG>" + meta("FLOP", "REMC") + "<FLOP><FLID>1001</FLID><REMC>&lol9;</REMC></FLOP></MSG>";

        assertDeadMalformed(processWithFollower(bomb), "DOCTYPE not allowed");
    }

    @Test
    void a_quadratic_blowup_is_refused_before_any_expansion() {
        // one 50,000-character entity used 30,000 times: 170 KB of text that would expand to 1.5 billion characters
        String entity = "<!DOCTYPE MSG [<!ENTITY a \"" + "a".repeat(50_000) + "\">]>";
        String bomb = entity + "<MSG>" + meta("FLOP", "REMC") + "<FLOP><FLID>1001</FLID><REMC>" + "&a;".repeat(30_000)
                + "</REMC></FLOP></MSG>";

        assertDeadMalformed(processWithFollower(bomb), "DOCTYPE not allowed");
    }

    // ------------------------------------------------------------------ nesting

    @Test
    void nesting_far_beyond_the_limit_is_refused_without_reading_it_all() {
        String deep = "<X>".repeat(200_000) + "</X>".repeat(200_000);

        var dead = processWithFollower("<MSG>" + meta("FLOP", "STND") + "<FLOP><FLID>1001</FLID><STND>1</STND>" + deep
                + "</FLOP></MSG>");

        assertDeadMalformed(dead, "element nesting deeper than 32 levels at <X>");
    }

    @Test
    void nesting_up_to_the_limit_is_processed() {
        createFlight1001();
        // MSG, FLOP and 30 unknown X: 32 levels, the limit; unknown elements are ignored
        String deep = "<X>".repeat(30) + "</X>".repeat(30);

        var record = process("<MSG>" + meta("FLOP", "STND") + "<FLOP><FLID>1001</FLID><STND>7</STND>" + deep + "</FLOP></MSG>");

        assertThat(record.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight1001(FlightField.STND)).isEqualTo("7");
    }

    // ------------------------------------------------------------------ size

    @Test
    void a_message_one_byte_over_the_size_limit_is_refused_before_parsing() {
        int limit = CodecLimits.DEFAULTS.maxMessageBytes();
        String message = exactlyOfSize(limit + 1);

        var dead = processWithFollower(message);

        assertDeadMalformed(dead, "message is " + (limit + 1) + " bytes (UTF-8), over the limit of " + limit
                + "; refused before parsing");
    }

    @Test
    void a_message_of_exactly_the_size_limit_is_processed() {
        String message = exactlyOfSize(CodecLimits.DEFAULTS.maxMessageBytes());

        var record = process(message);

        assertThat(record.status()).as(record.toString()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record.lastError()).matches("applied: \\d{4} flight\\(s\\) changed");
    }

    @Test
    void a_value_over_the_value_limit_and_a_text_over_the_text_limit_are_refused() {
        String tooLongValue = "<MSG>" + meta("FLOP", "REMC") + "<FLOP><FLID>1001</FLID><REMC>" + "x".repeat(513)
                + "</REMC></FLOP></MSG>";
        String tooLongText = "<MSG>" + meta("FLOP", "REMC") + "<FLOP><FLID>1001</FLID><REMC>x</REMC><NOTE>"
                + "x".repeat(64 * 1024 + 1) + "</NOTE></FLOP></MSG>";

        assertDeadMalformed(processWithFollower(tooLongValue), "FLOP: REMC is 513 characters, longer than 512");
        assertDeadMalformed(processWithFollower(tooLongText), "text of <NOTE> is longer than 65536 characters");
    }

    // ------------------------------------------------------------------ invalid UTF-8

    /**
     * The mailbox hands over text: the MariaDB driver has already decoded the bytes and replaced every malformed
     * sequence with U+FFFD. Damage inside a value is therefore processed and visible as U+FFFD in the value,
     * never silently dropped; damage in the markup makes the message not well-formed.
     */
    @Test
    void invalid_utf8_inside_a_value_arrives_as_replacement_characters_and_stays_visible() {
        createFlight1001();
        String xml = asTheMailboxDriverDecodes(sis.flop(FlopSubtype.REMC, "1001", patch("REMC", "ok")),
                "<REMC>ok", new byte[]{(byte) 0xC3, 0x28, (byte) 0xED, (byte) 0xA0, (byte) 0x80, (byte) 0xFF});

        var record = process(xml);

        assertThat(record.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight1001(FlightField.REMC)).startsWith("ok\uFFFD").contains("\uFFFD(").doesNotContain("\uD800");
    }

    @Test
    void invalid_utf8_inside_the_markup_is_not_well_formed() {
        String xml = asTheMailboxDriverDecodes(sis.flop(FlopSubtype.REMC, "1001", patch("REMC", "ok")),
                "<REM", new byte[]{(byte) 0xC0, (byte) 0x80});

        assertDeadMalformed(processWithFollower(xml), "not well-formed XML: ");
    }

    @Test
    void text_that_was_never_valid_unicode_is_refused() {
        String loneSurrogate = sis.flop(FlopSubtype.REMC, "1001", patch("REMC", "ok")).replace("<REMC>ok", "<REMC>ok\uD800");
        String nonCharacter = sis.flop(FlopSubtype.REMC, "1001", patch("REMC", "ok")).replace("<REMC>ok", "<REMC>ok\uFFFE");
        String inAnAttribute = sis.flop(FlopSubtype.GTDT, "1001", withList(FlightPatch.empty(), FlightList.GTDT,
                item(1, "GATE", "G1"))).replace("GTNO=\"1\"", "GTNO=\"1\uDC00\"");

        assertDeadMalformed(processWithFollower(loneSurrogate), "text of <REMC> contains U+D800, which XML 1.0 does not allow");
        assertDeadMalformed(processWithFollower(nonCharacter), "text of <REMC> contains U+FFFE, which XML 1.0 does not allow");
        assertDeadMalformed(processWithFollower(inAnAttribute),
                "attribute GTNO of <GTDT> contains U+DC00, which XML 1.0 does not allow");
    }

    // ------------------------------------------------------------------ control characters

    @Test
    void control_characters_raw_or_as_references_are_refused() {
        String remc = sis.flop(FlopSubtype.REMC, "1001", patch("REMC", "ok"));

        assertDeadMalformed(processWithFollower(remc.replace("<REMC>ok", "<REMC>o\u0001k")), "not well-formed XML: Illegal character ((CTRL-CHAR, code 1))");
        assertDeadMalformed(processWithFollower(remc.replace("<REMC>ok", "<REMC>o\u0000k")), "not well-formed XML: Illegal character (NULL, unicode 0)");
        assertDeadMalformed(processWithFollower(remc.replace("<REMC>ok", "<REMC>o&#27;k")), "not well-formed XML: Illegal character entity: expansion character (code 0x1b)");
        assertDeadMalformed(processWithFollower(remc.replace("<REMC>ok", "<REMC>o&#x0;k")), "not well-formed XML: ");
        // XML 1.1 allows C0 controls as references; SIS values must stay XML 1.0, as the encoder writes them
        assertDeadMalformed(processWithFollower("<?xml version=\"1.1\"?>" + remc.replace("<REMC>ok", "<REMC>o&#1;k")),
                "text of <REMC> contains U+0001, which XML 1.0 does not allow");
        assertDeadMalformed(processWithFollower(remc.replace("<SNDR>AODB", "<SNDR>AO\u0007DB")), "not well-formed XML: Illegal character ((CTRL-CHAR, code 7))");
    }

    @Test
    void tab_line_feed_and_carriage_return_are_text_and_are_kept() {
        createFlight1001();
        String remc = sis.flop(FlopSubtype.REMC, "1001", patch("REMC", "ok")).replace("<REMC>ok", "<REMC>line\tone&#13;\nline two");

        var record = process(remc);

        assertThat(record.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight1001(FlightField.REMC)).isEqualTo("line\tone\r\nline two");
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The hostile message, then a valid one behind it; both processed. Returns the hostile message's record after
     * checking that the follower succeeded, so no attack stalls the queue.
     */
    private ProcRecord processWithFollower(String hostile) {
        long id = mailbox.appendInbound(hostile, null);
        long follower = mailbox.appendInbound(sis.adft(fltr("F" + id, "11MAR241500", "FLNO", "CA" + id)), null);
        runWithinBudget(true);
        assertThat(record(follower).status()).as("the valid message behind the hostile one").isEqualTo(ProcStatus.SUCCEEDED);
        return record(id);
    }

    private ProcRecord process(String xml) {
        long id = mailbox.appendInbound(xml, null);
        runWithinBudget(false);
        return record(id);
    }

    /**
     * Runs the pipeline until it is quiet, within the time budget; for a hostile message also checks what that
     * allocated (a valid message of 2 MiB may well allocate more).
     */
    private void runWithinBudget(boolean hostile) {
        long allocated = assertTimeoutPreemptively(TIME_BUDGET, () -> {
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getCurrentThreadAllocatedBytes();
            pipeline.runUntilQuiet();
            return threads.getCurrentThreadAllocatedBytes() - before;
        });
        if (hostile) {
            assertThat(allocated).as("bytes allocated while processing").isLessThan(ALLOCATION_BUDGET);
        }
    }

    private static void assertDeadMalformed(ProcRecord record, String reasonStart) {
        assertThat(record.status()).as(record.toString()).isEqualTo(ProcStatus.DEAD);
        assertThat(record.errorClass()).isEqualTo(ErrorClass.MALFORMED);
        assertThat(record.lastError()).startsWith(reasonStart);
        assertThat(record.attempts()).as("never retried").isZero();
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }

    private void createFlight1001() {
        var record = process(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405", "STND", "1", "REMC", "x")));
        assertThat(record.status()).isEqualTo(ProcStatus.SUCCEEDED);
    }

    private String flight1001(FlightField field) {
        return store.allFlights().stream().filter(f -> f.flid().equals(FlightId.of("1001"))).findFirst().orElseThrow()
                .fields().valueOf(field);
    }

    /** Every text the store holds: records, flights, events. */
    private String everythingStored() {
        return store.allRecords() + " " + store.allFlights() + " " + store.allEvents();
    }

    private String meta(String type, String styp) {
        return "<META><SNDR>AODB</SNDR><SEQN>" + seqn.incrementAndGet() + "</SEQN><DTTM>20240311060000</DTTM>"
                + "<TYPE>" + type + "</TYPE><STYP>" + styp + "</STYP></META>";
    }

    /** A port that listens but is never served: a connection to it would wait in the backlog for {@code accept}. */
    private static ServerSocketChannel listeningServer() throws Exception {
        var server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        server.configureBlocking(false);
        return server;
    }

    /** The message's UTF-8 bytes with {@code damage} inserted after {@code marker}, decoded as the driver does. */
    private static String asTheMailboxDriverDecodes(String xml, String marker, byte[] damage) {
        int at = xml.indexOf(marker) + marker.length();
        var bytes = new ByteArrayOutputStream();
        bytes.writeBytes(xml.substring(0, at).getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(damage);
        bytes.writeBytes(xml.substring(at).getBytes(StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * A valid daily schedule of exactly {@code bytes} UTF-8 bytes: records of about 270 bytes each (so a few
     * thousand flights), then a comment that pads to the exact size.
     */
    private String exactlyOfSize(int bytes) {
        String head = "<MSG>" + meta("SCHD", "DNLD") + "<SCHD>";
        String tail = "</SCHD></MSG>";
        var body = new StringBuilder();
        int n = 0;
        while (true) {
            String record = "<FLTR><FLID>" + (10_000 + n) + "</FLID><ALCD>CA</ALCD><FLNO>CA" + (10_000 + n)
                    + "</FLNO><MVIN>D</MVIN><SODT>11MAR240835</SODT><REMC>" + "r".repeat(150) + "</REMC></FLTR>";
            if (head.length() + body.length() + record.length() + tail.length() + 600 > bytes) {
                break;
            }
            body.append(record);
            n++;
        }
        String recs = "<RECS>" + n + "</RECS>";
        int padding = bytes - head.length() - recs.length() - body.length() - tail.length() - "<!---->".length();
        String message = head + recs + body + "<!--" + "p".repeat(padding) + "-->" + tail;
        assertThat(message.getBytes(StandardCharsets.UTF_8)).hasSize(bytes);
        return message;
    }
}
