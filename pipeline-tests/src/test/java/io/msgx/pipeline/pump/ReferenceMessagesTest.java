package io.msgx.pipeline.pump;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.pipeline.record.ReferenceOutboxEntry;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reference messages in the real form of sis-format §6 (version 2), from the mailbox through the pipeline into
 * {@code REF_MASTER} and the {@code KAFKA:ref} outbox, over the in-memory mailbox and the H2 test store.
 */
class ReferenceMessagesTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);
    private int seqn = 1000;

    /** A message as the AODB writes it: {@code body} directly under {@code MSG}, after {@code META}. */
    private long send(String type, String styp, String body) {
        return mailbox.appendInbound("<?xml version=\"1.0\" encoding=\"UTF-8\"?><MSG><META><SNDR>AODB</SNDR><RCVR>RMS</RCVR>"
                + "<SEQN>" + (seqn++) + "</SEQN><DTTM>20240311060000</DTTM><TYPE>" + type + "</TYPE><STYP>" + styp
                + "</STYP></META>" + body + "</MSG>", null);
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }

    private ReferenceEntry stored(String type, String key) {
        return store.referenceData().find(type, key).orElseThrow(() -> new AssertionError("no " + type + "/" + key));
    }

    private ReferenceOutboxEntry published(String type, String key) {
        return store.referenceNotifications().referenceEvent(type, key).orElseThrow(() -> new AssertionError("no event " + type + ":" + key));
    }

    /** Every reference type of sis-format §6 but REGN, with its key element and one other element. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "ABDG, ABCD, CDSC", "ABNR, ANRC, ARDC", "AIRC, ITAT, CDSC", "AIRL, ITOP, ONMC", "ARPT, ITCD, ANMC",
            "BLST, BCOD, BNMC", "CHLT, CCOD, CNMC", "CITY, ITCD, CNMC", "CLST, CCOD, CNMC", "COUL, COUC, CNMC",
            "DLYL, DCOD, DDSC", "FLTL, FTYP, FDSC", "GLST, GCOD, GNMC", "HLTR, HLTC, HTDC", "ORGN, OGID, ONMC",
            "PLST, PCOD, PNMC", "REGL, REGC, RGNC", "SLST, SCOD, SNMC", "STTS, STTC, STDC", "TLST, TCOD, TNMC",
            "VIPL, VPCD, VPNC", "VIPS, VSCD, VSDC"})
    void every_reference_type_is_added_updated_downloaded_answered_and_deleted(String type, String key, String other) {
        String record1 = "<" + type + "><" + key + ">K1</" + key + "><" + other + ">一号</" + other + "></" + type + ">";
        String record2 = "<" + type + "><" + key + ">K2</" + key + "><" + other + "/></" + type + ">";

        long add = send(type, "ADD", "<RECS>2</RECS>" + record1 + record2);
        long upd = send(type, "UPD", "<RECS>1</RECS><" + type + "><" + key + ">K1</" + key + "><" + other + ">二号</"
                + other + "></" + type + ">");
        long dnld = send(type, "DNLD", record2);
        long resp = send(type, "RESP", "<RECS>1</RECS>" + record2);
        long del = send(type, "DEL", "<RECS>1</RECS><" + type + "><" + key + ">K2</" + key + "></" + type + ">");
        pipeline.runUntilQuiet();

        for (long id : new long[]{add, upd, dnld, resp, del}) {
            assertThat(record(id).status()).as(record(id).lastError()).isEqualTo(ProcStatus.SUCCEEDED);
        }
        assertThat(record(add).lastError()).isEqualTo("reference: 2 record(s) of " + type + " (ADD)");
        assertThat(record(del).lastError()).isEqualTo("reference: 1 record(s) of " + type + " (DEL), 1 removed");
        assertThat(record(resp).lastError()).startsWith("reference: 1 record(s) of " + type + "; no request: ");
        assertThat(stored(type, "K1").document().json()).isEqualTo("{\"" + key + "\":\"K1\",\"" + other + "\":\"二号\"}");
        assertThat(stored(type, "K1").msgId()).isEqualTo(upd);
        assertThat(store.referenceData().find(type, "K2")).isEmpty();
        assertThat(published(type, "K2").event().eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
        assertThat(published(type, "K2").event().payload()).isNull();
        assertThat(published(type, "K1").event().msgId()).isEqualTo(upd);
    }

    @Test
    void a_record_is_kept_whole_with_repeats_attributes_children_empty_elements_and_chinese_text() throws Exception {
        long id = send("ABDG", "ADD", "<RECS>1</RECS><ABDG><ABCD>AB01</ABCD><DESC>Bridge 1</DESC><CDSC>一号廊桥</CDSC>"
                + "<STND>201</STND><STND>202</STND><GATE/><ATML MVIN=\"A\" FLIN=\"I\">T2</ATML>"
                + "<SUBC><CODE>3U</CODE><NAME/><NAMC>四川航空</NAMC></SUBC><ABBR CODE=\"X1\"/></ABDG>");
        pipeline.runUntilQuiet();

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        var document = stored("ABDG", "AB01").document();
        assertThat(document.json()).isEqualTo("{\"ABCD\":\"AB01\",\"DESC\":\"Bridge 1\",\"CDSC\":\"一号廊桥\","
                + "\"STND\":[\"201\",\"202\"],\"GATE\":\"\",\"ATML\":{\"@MVIN\":\"A\",\"@FLIN\":\"I\",\"#text\":\"T2\"},"
                + "\"SUBC\":{\"CODE\":\"3U\",\"NAME\":\"\",\"NAMC\":\"四川航空\"},\"ABBR\":{\"@CODE\":\"X1\"}}");
        var value = new ObjectMapper().readTree(published("ABDG", "AB01").event().payload());
        assertThat(value.get("rtype").asText()).isEqualTo("ABDG");
        assertThat(value.get("rkey").asText()).isEqualTo("AB01");
        assertThat(value.get("record").toString()).isEqualTo(document.json());
        assertThat(value.get("msgId").asLong()).isEqualTo(id);
        assertThat(value.get("updatedAt").asText()).isEqualTo(clock.instant().toString());
    }

    @Test
    void a_wrong_recs_is_a_protocol_error_and_nothing_is_applied() {
        long id = send("GLST", "ADD", "<RECS>3</RECS><GLST><GCOD>G1</GCOD></GLST><GLST><GCOD>G2</GCOD></GLST>");
        pipeline.runUntilQuiet();

        assertThat(record(id).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(id).errorClass()).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(record(id).lastError()).isEqualTo("RECS says 3 but the message carries 2 GLST record(s); nothing applied");
        assertThat(store.referenceData().all("GLST", 10)).isEmpty();
        assertThat(store.allReferenceEvents()).isEmpty();
    }

    @Test
    void a_recs_that_is_not_a_number_is_malformed() {
        long id = send("GLST", "ADD", "<RECS>two</RECS><GLST><GCOD>G1</GCOD></GLST>");
        pipeline.runUntilQuiet();

        assertThat(record(id).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(id).errorClass()).isEqualTo(ErrorClass.MALFORMED);
        assertThat(record(id).lastError()).contains("RECS 'two' is not an integer");
    }

    @Test
    void an_empty_download_with_recs_zero_changes_nothing_and_succeeds() {
        send("GLST", "ADD", "<GLST><GCOD>G1</GCOD></GLST>");
        long id = send("GLST", "DNLD", "<RECS>0</RECS>");
        pipeline.runUntilQuiet();

        assertThat(record(id).lastError()).isEqualTo("reference: 0 record(s) of GLST (DNLD)");
        assertThat(store.referenceData().all("GLST", 10)).hasSize(1);
    }

    @Test
    void a_delete_needs_only_the_key_and_an_unknown_key_is_an_idempotent_success() {
        send("SLST", "ADD", "<SLST><SCOD>201</SCOD><STNM>Stand 201</STNM></SLST>");
        long del = send("SLST", "DEL", "<RECS>2</RECS><SLST><SCOD>201</SCOD><STNM>whatever</STNM></SLST>"
                + "<SLST><SCOD>999</SCOD></SLST>");
        long again = send("SLST", "DEL", "<SLST><SCOD>201</SCOD></SLST>");
        pipeline.runUntilQuiet();

        assertThat(record(del).lastError()).isEqualTo("reference: 2 record(s) of SLST (DEL), 1 removed");
        assertThat(record(again).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(again).lastError()).isEqualTo("reference: 1 record(s) of SLST (DEL)");
        assertThat(store.referenceData().all("SLST", 10)).isEmpty();
        assertThat(store.referenceNotifications().referenceEvent("SLST", "999")).as("nothing to publish for an unknown key").isEmpty();
    }

    /** Message {@code msgId} applied straight by the processor, as a replay runs it again after later messages. */
    private String applyDirectly(long msgId, io.msgx.pipeline.codec.ReferenceAction action, String... keysAndNames) {
        store.queue().insertIfAbsent(msgId, clock.instant(), clock.instant());
        var records = new java.util.ArrayList<io.msgx.pipeline.codec.ReferenceRecord>();
        for (int i = 0; i < keysAndNames.length; i += 2) {
            var fields = new java.util.LinkedHashMap<String, String>();
            fields.put("GCOD", keysAndNames[i]);
            fields.put("GTNM", keysAndNames[i + 1]);
            records.add(new io.msgx.pipeline.codec.ReferenceRecord(keysAndNames[i], fields));
        }
        return new ReferenceProcessor(store, clock).apply(record(msgId),
                io.msgx.pipeline.codec.MessageMeta.of("AODB", "GLST", action.name(), "s" + msgId,
                        java.time.LocalDateTime.of(2024, 3, 11, 6, 0)),
                new io.msgx.pipeline.codec.ReferenceAnswer("GLST", action, records)).reason();
    }

    @Test
    void a_replayed_older_message_neither_overwrites_nor_deletes_a_record_a_later_message_wrote() {
        applyDirectly(20, io.msgx.pipeline.codec.ReferenceAction.UPD, "G1", "newer", "G2", "newer");

        var update = applyDirectly(10, io.msgx.pipeline.codec.ReferenceAction.UPD, "G1", "older", "G3", "older");
        var delete = applyDirectly(11, io.msgx.pipeline.codec.ReferenceAction.DEL, "G2", "");

        assertThat(update).isEqualTo("reference: 2 record(s) of GLST (UPD), 1 kept (written by a later message)");
        assertThat(delete).isEqualTo("reference: 1 record(s) of GLST (DEL), 1 kept (written by a later message)");
        assertThat(stored("GLST", "G1").document().texts()).containsEntry("GTNM", "newer");
        assertThat(stored("GLST", "G2").msgId()).isEqualTo(20);
        assertThat(stored("GLST", "G3").msgId()).as("a key no later message wrote is written").isEqualTo(10);
        assertThat(published("GLST", "G1").event().msgId()).as("nothing published for what was kept").isEqualTo(20);
        assertThat(published("GLST", "G2").event().eventType()).isEqualTo(OutboxEvent.EventType.UPSERT);
    }

    @Test
    void a_download_keeps_the_records_it_does_not_carry_by_default() {
        send("GLST", "ADD", "<GLST><GCOD>G1</GCOD></GLST><GLST><GCOD>G2</GCOD></GLST>");
        long dnld = send("GLST", "DNLD", "<RECS>1</RECS><GLST><GCOD>G2</GCOD><GTNM>Gate 2</GTNM></GLST>");
        pipeline.runUntilQuiet();

        assertThat(record(dnld).lastError()).isEqualTo("reference: 1 record(s) of GLST (DNLD)");
        assertThat(store.referenceData().all("GLST", 10)).extracting(ReferenceEntry::key).containsExactly("G1", "G2");
    }

    @Test
    void a_download_removes_the_records_it_does_not_carry_when_configured() {
        pipeline = new PipelineHarness(mailbox, store, clock, new ReferenceSettings(true));
        send("GLST", "ADD", "<GLST><GCOD>G1</GCOD></GLST><GLST><GCOD>G2</GCOD></GLST>");
        send("SLST", "ADD", "<SLST><SCOD>201</SCOD></SLST>");
        long dnld = send("GLST", "DNLD", "<RECS>1</RECS><GLST><GCOD>G2</GCOD><GTNM>Gate 2</GTNM></GLST>");
        long resp = send("GLST", "RESP", "<GLST><GCOD>G3</GCOD></GLST>");
        pipeline.runUntilQuiet();

        assertThat(record(dnld).lastError()).isEqualTo("reference: 1 record(s) of GLST (DNLD), 1 removed");
        assertThat(record(resp).lastError()).as("only a DNLD is the full list")
                .startsWith("reference: 1 record(s) of GLST; no request");
        assertThat(store.referenceData().all("GLST", 10)).extracting(ReferenceEntry::key).containsExactly("G2", "G3");
        assertThat(store.referenceData().find("SLST", "201")).as("another type").isPresent();
        assertThat(published("GLST", "G1").event().eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
    }

    @Test
    void regn_stays_ignored_by_the_baseline_rule_whatever_its_subtype() {
        long add = send("REGN", "ADD", "<REGN><RNUM>B-1234</RNUM><ITAT>320</ITAT></REGN>");
        long dnld = send("REGN", "DNLD", "<REGN><RNUM>B-1234</RNUM></REGN>");
        pipeline.runUntilQuiet();

        assertThat(record(add).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(add).lastError()).isEqualTo("ignored:REGN-*");
        assertThat(record(dnld).lastError()).isEqualTo("ignored:REGN-*");
        assertThat(store.referenceData().all("REGN", 10)).isEmpty();
    }

    @Test
    void the_version_1_names_and_container_form_are_still_read() {
        long id = send("GATE", "RESP", "<GATE><GATE><GTCD>G28</GTCD><DESC>Gate 28</DESC></GATE></GATE>");
        pipeline.runUntilQuiet();

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(stored("GATE", "G28").document().texts()).containsEntry("DESC", "Gate 28");
    }
}
