package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reference answers from the mailbox into {@code REF_MASTER} over the in-memory mailbox and the H2 test store. */
class ReferenceFlowTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);

    private static String gateAnswer(String seqn, ReferenceRecord... gates) {
        return new JacksonXmlCodec().encode(MessageMeta.of("AODB", "GATE", "RESP", seqn, LocalDateTime.of(2024, 3, 11, 6, 0)),
                new ReferenceAnswer("GATE", List.of(gates)));
    }

    private static ReferenceRecord gate(String code, String description, String terminal) {
        var fields = new LinkedHashMap<String, String>();
        fields.put("GTCD", code);
        fields.put("DESC", description);
        fields.put("TRML", terminal);
        return new ReferenceRecord(code, fields);
    }

    @Test
    void a_gate_answer_ends_succeeded_and_its_gates_are_readable() {
        long id = mailbox.appendInbound(gateAnswer("77", gate("G28", "Gate 28", "T2"), gate("G01", "Gate 1", "T1")), null);

        pipeline.runUntilQuiet();

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(id).lastError()).isEqualTo(
                "reference: 2 record(s) of GATE; no request: no RQSN, and no open GATE reference request");
        assertThat(record(id).backfillNextAt()).as("the mark is owed from the end").isEqualTo(clock.instant());
        var g28 = store.referenceData().find("GATE", "G28").orElseThrow();
        assertThat(g28.document().texts().keySet()).containsExactly("GTCD", "DESC", "TRML");
        assertThat(g28.document().texts()).containsEntry("DESC", "Gate 28").containsEntry("TRML", "T2");
        assertThat(g28.msgId()).isEqualTo(id);
        assertThat(store.referenceData().all("GATE", 10)).extracting(ReferenceEntry::key).containsExactly("G01", "G28");
        assertThat(store.allFlights()).isEmpty();
        assertThat(store.allEvents()).as("no flight event").isEmpty();
        assertThat(store.allReferenceEvents()).extracting(e -> e.event().partitionKey())
                .containsExactly("GATE:G28", "GATE:G01");
    }

    @Test
    void a_later_partial_answer_keeps_the_gates_it_does_not_carry() {
        mailbox.appendInbound(gateAnswer("77", gate("G28", "Gate 28", "T2"), gate("G01", "Gate 1", "T1")), null);
        long later = mailbox.appendInbound(gateAnswer("78", gate("G01", "Gate 1 (closed)", "T1")), null);

        pipeline.runUntilQuiet();

        assertThat(record(later).lastError()).startsWith("reference: 1 record(s) of GATE;");
        assertThat(store.referenceData().find("GATE", "G01").orElseThrow().document().texts())
                .containsEntry("DESC", "Gate 1 (closed)");
        assertThat(store.referenceData().find("GATE", "G28")).isPresent();
    }

    @Test
    void a_duplicate_answer_is_skipped_and_writes_nothing() {
        var xml = gateAnswer("77", gate("G28", "Gate 28", "T2"));
        long first = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
        var before = store.referenceData().find("GATE", "G28").orElseThrow();

        long duplicate = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();

        assertThat(record(duplicate).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(duplicate).lastError()).isEqualTo("duplicate-of:" + first);
        assertThat(store.referenceData().find("GATE", "G28")).contains(before);
    }

    @Test
    void an_answer_already_ended_is_not_applied_again() {
        long id = mailbox.appendInbound(gateAnswer("77", gate("G28", "Gate 28", "T2")), null);
        pipeline.runUntilQuiet();
        var head = record(id);

        var terminal = new ReferenceProcessor(store, clock).apply(head,
                MessageMeta.of("AODB", "GATE", "RESP", "77", LocalDateTime.of(2024, 3, 11, 6, 0)),
                new ReferenceAnswer("GATE", List.of(gate("G28", "changed", "T9"))));

        assertThat(terminal.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(terminal.reason()).isEqualTo(head.lastError());
        assertThat(store.referenceData().find("GATE", "G28").orElseThrow().document().texts()).containsEntry("DESC", "Gate 28");
    }

    @Test
    void an_ignored_type_is_skipped_and_reference_data_is_unaffected() {
        mailbox.appendInbound(gateAnswer("77", gate("G28", "Gate 28", "T2")), null);
        long ignored = mailbox.appendInbound(raw("LDM", "RESP", "80"), null);

        pipeline.runUntilQuiet();

        assertThat(record(ignored).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(ignored).lastError()).startsWith("ignored:");
        assertThat(store.referenceData().all("GATE", 10)).hasSize(1);
        assertThat(store.referenceData().all("LDM", 10)).isEmpty();
    }

    @Test
    void an_unsupported_type_still_fails_as_unsupported_and_reference_data_is_unaffected() {
        mailbox.appendInbound(gateAnswer("77", gate("G28", "Gate 28", "T2")), null);
        long unsupported = mailbox.appendInbound(raw("GATE", "RQST", "81"), null);

        pipeline.runUntilQuiet();

        assertThat(record(unsupported).status()).isEqualTo(ProcStatus.FAILED);
        assertThat(record(unsupported).errorClass()).isEqualTo(ErrorClass.UNSUPPORTED);
        assertThat(record(unsupported).lastError()).isEqualTo("no processor handles GATE-RQST");
        assertThat(store.referenceData().all("GATE", 10)).extracting(ReferenceEntry::key).containsExactly("G28");
    }

    private static String raw(String type, String subtype, String seqn) {
        return "<MSG><META><SNDR>AODB</SNDR><SEQN>" + seqn + "</SEQN><DTTM>20240311060000</DTTM><TYPE>" + type
                + "</TYPE><STYP>" + subtype + "</STYP></META><" + type + "><GTCD>G99</GTCD></" + type + "></MSG>";
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }
}
