package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MsgKind;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.RealForms;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real traffic is the judge (issue 22): one message of every kind of sis-format.md version 2, in its real form,
 * through the whole pipeline over the in-memory mailbox and the H2 test store with default settings. Every message ends as the contract
 * says, none is unsupported, the codec maps everything they carry, and every value is in the state published for
 * Kafka ({@code KAFKA:schd}, {@code KAFKA:ref}) and in {@code REF_MASTER}.
 */
class RealFormsPipelineTest {

    private final RealForms corpus = RealForms.load();

    @Test
    void the_codec_knows_every_kind_but_the_ignored_ones_and_every_element_and_attribute_of_real_traffic() {
        var codec = new JacksonXmlCodec();
        for (var message : corpus.messages()) {
            var decoded = codec.decode(message.xml());
            assertThat(decoded).as(message.file()).isInstanceOf(DecodeResult.Decoded.class);
            var ok = (DecodeResult.Decoded) decoded;
            if (IgnoreRules.baseline().match(message.type(), message.subtype()).isEmpty()) {
                assertThat(ok.message().kind()).as(message.file()).isNotInstanceOf(MsgKind.Unsupported.class);
            }
            assertThat(ok.unmapped()).as(message.file() + ": unmapped").isEqualTo(message.expectedUnmapped());
        }
    }

    @Test
    void every_message_ends_as_the_contract_says_and_no_value_is_lost_on_the_way_to_the_topics() {
        var mailbox = new InMemoryMailbox();
        var store = H2TestStore.fresh();
        var pipeline = new PipelineHarness(mailbox, store, SettableClock.atExampleDay());
        var ids = new LinkedHashMap<Long, RealForms.Message>();
        corpus.messages().forEach(message -> {
            long id = mailbox.appendInbound(message.xml(), null);
            if (message.status() != null) {
                mailbox.setStatus(id, message.status());
            }
            ids.put(id, message);
        });

        pipeline.runUntilQuiet();

        ids.forEach((id, message) -> assertThat(store.queue().find(id).orElseThrow())
                .as(message.file())
                .satisfies(record -> assertThat(record.status().name())
                        .as(message.file() + " ended " + record.status() + ": " + record.lastError())
                        .isEqualTo(message.expectedState())));
        ids.forEach((id, message) -> message.outcomeNames().forEach(name -> assertThat(
                store.queue().find(id).orElseThrow().lastError()).as(message.file() + " names in its outcome").contains(name)));

        var projections = new LinkedHashMap<String, String>();
        store.allEvents().stream()
                .filter(entry -> entry.event().target() == OutboxTarget.KAFKA_SCHD)
                .forEach(entry -> projections.put(entry.event().partitionKey().value(), entry.event().payload()));
        var references = new LinkedHashMap<String, String>();
        store.allReferenceEvents().forEach(entry -> references.put(entry.event().partitionKey(), entry.event().payload()));

        assertNothingLost(corpus.flightValues(), projections);
        assertNothingLost(corpus.referenceValues(), references);
        corpus.deletedFlights().forEach(flid -> assertThat(projections).as("tombstone of " + flid).containsEntry(flid, null));
        corpus.deletedReferences().forEach(key -> assertThat(references).as("tombstone of " + key).containsEntry(key, null));
        for (var key : corpus.referenceValues().keySet()) {
            var typeAndKey = key.split(":", 2);
            var stored = store.referenceData().find(typeAndKey[0], typeAndKey[1]).orElseThrow().document().json();
            assertThat(RealForms.missingFrom(stored, corpus.referenceValues().get(key)))
                    .as("values of " + key + " missing from REF_MASTER: " + stored).isEmpty();
        }
    }

    /** Every value of {@code expected} is in the last value published under its key. */
    private static void assertNothingLost(Map<String, Set<String>> expected, Map<String, String> lastByKey) {
        expected.forEach((key, values) -> {
            assertThat(lastByKey.get(key)).as("the last value published for " + key).isNotNull();
            assertThat(RealForms.missingFrom(lastByKey.get(key), values))
                    .as("values of " + key + " missing from " + lastByKey.get(key)).isEmpty();
        });
    }
}
