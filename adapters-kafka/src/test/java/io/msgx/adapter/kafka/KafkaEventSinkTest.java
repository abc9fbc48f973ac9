package io.msgx.adapter.kafka;

import io.cloudevents.kafka.KafkaMessageFactory;
import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.EventAttributes;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.delivery.OutgoingEvent.EventStream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.msgx.pipeline.testing.OutgoingEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

/** The sink against a real broker: topics, keys, values, tombstones, order, per-record results. */
class KafkaEventSinkTest {

    private static KafkaSinkSettings settingsFor(String msgTopic, String schdTopic) {
        return KafkaSinkSettings.defaults(KafkaTestBroker.bootstrapServers())
                .withClientId("sink-test")
                .withTopics(msgTopic, schdTopic);
    }

    @Test
    void recordsLandOnTheConfiguredTopicsKeyedByFlidWithTheExactJsonAndTombstones() {
        var msg = KafkaTestBroker.uniqueTopic("msg");
        var schd = KafkaTestBroker.uniqueTopic("schd");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd);
        var notification = "{\"eventId\":7,\"flid\":\"1001\",\"stateVersion\":3,\"change\":\"UPSERT\","
                + "\"changed\":[\"GTDT\"],\"remark\":\"Zürich ✈\"}";
        var state = "{\"flid\":\"1001\",\"stateVersion\":3,\"state\":\"ACTIVE\",\"GATE\":\"G33\"}";

        try (var sink = new KafkaEventSink(settingsFor(msg, schd))) {
            var results = sink.send(List.of(
                    event(EventStream.MSG, "1001", notification),
                    event(EventStream.SCHD, "1001", state),
                    event(EventStream.SCHD, "1002", null)));

            assertThat(results).containsExactly(DeliveryOutcome.delivered(), DeliveryOutcome.delivered(), DeliveryOutcome.delivered());
        }

        assertThat(KafkaTestBroker.readAll(msg))
                .extracting(KafkaTestBroker.ReadRecord::key, KafkaTestBroker.ReadRecord::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("1001", notification));
        assertThat(KafkaTestBroker.readAll(schd))
                .extracting(KafkaTestBroker.ReadRecord::key, KafkaTestBroker.ReadRecord::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("1001", state),
                        org.assertj.core.groups.Tuple.tuple("1002", null));
    }

    @Test
    void everyRecordCarriesItsCloudEventsAttributesInBinaryModeAndTheFlightsVersionTombstonesIncluded() {
        var msg = KafkaTestBroker.uniqueTopic("msg-ce");
        var schd = KafkaTestBroker.uniqueTopic("schd-ce");
        var reference = KafkaTestBroker.uniqueTopic("reference-ce");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd, reference);
        var committed = Instant.parse("2024-03-11T00:36:02.118Z");
        var change = new OutgoingEvent(EventStream.MSG, "1001", "{\"flid\":\"1001\",\"stateVersion\":7}",
                new EventAttributes("change:1001:7", EventAttributes.FLIGHT_CHANGED, "1001", committed, 7L, 55120));
        var deletion = new OutgoingEvent(EventStream.SCHD, "1001", null,
                new EventAttributes("state:1001:8", EventAttributes.FLIGHT_STATE, "1001", committed, 8L, 0));
        var record = new OutgoingEvent(EventStream.REF, "GLST:G33", "{\"rtype\":\"GLST\"}",
                new EventAttributes("GLST:G33@55002", EventAttributes.REFERENCE_RECORD, "GLST:G33", committed, null, 55002));

        try (var sink = new KafkaEventSink(settingsFor(msg, schd).withReferenceTopic(reference)
                .withEventSource("ZGGG", "app-1"))) {
            assertThat(sink.send(List.of(change, deletion, record))).containsOnly(DeliveryOutcome.delivered());
        }

        var changeHeaders = KafkaTestBroker.readAll(msg).get(0).headers();
        assertThat(changeHeaders).containsEntry("ce_specversion", "1.0").containsEntry("ce_id", "change:1001:7")
                .containsEntry("ce_source", "/msgexchange/ZGGG/app-1")
                .containsEntry("ce_type", "io.msgx.flight.changed.v1").containsEntry("ce_subject", "1001")
                .containsEntry("ce_time", "2024-03-11T00:36:02.118Z").containsEntry("content-type", "application/json")
                .containsEntry("msgx_stateversion", "7").containsEntry("msgx_msgid", "55120");
        var tombstone = KafkaTestBroker.readAll(schd).get(0);
        assertThat(tombstone.value()).isNull();
        assertThat(tombstone.headers()).as("a tombstone says which version deleted the flight")
                .containsEntry("ce_id", "state:1001:8").containsEntry("ce_type", "io.msgx.flight.state.v1")
                .containsEntry("msgx_stateversion", "8").containsEntry("msgx_msgid", "0");
        var referenceRecord = KafkaTestBroker.readAll(reference).get(0);
        assertThat(referenceRecord.headers()).containsEntry("ce_id", "GLST:G33@55002")
                .containsEntry("ce_subject", "GLST:G33").containsEntry("msgx_msgid", "55002")
                .doesNotContainKey("msgx_stateversion");

        // What a consumer using the CloudEvents SDK reads back: the same event, its data the value.
        var headers = new RecordHeaders();
        changeHeaders.forEach((name, value) -> headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
        var read = KafkaMessageFactory.createReader(headers, change.value().getBytes(StandardCharsets.UTF_8)).toEvent();
        assertThat(read.getId()).isEqualTo("change:1001:7");
        assertThat(read.getSource()).hasToString("/msgexchange/ZGGG/app-1");
        assertThat(read.getTime().toInstant()).isEqualTo(committed);
        assertThat(new String(read.getData().toBytes(), StandardCharsets.UTF_8)).isEqualTo(change.value());
    }

    @Test
    void referenceRecordsLandOnTheReferenceTopicKeyedByTypeAndKeyAndADeletionIsATombstone() {
        var msg = KafkaTestBroker.uniqueTopic("msg-ref");
        var schd = KafkaTestBroker.uniqueTopic("schd-ref");
        var reference = KafkaTestBroker.uniqueTopic("reference");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd, reference);
        var gate = "{\"rtype\":\"GLST\",\"rkey\":\"G17\",\"record\":{\"GCOD\":\"G17\",\"GNMC\":\"17号登机口\"},"
                + "\"msgId\":41,\"updatedAt\":\"2024-03-11T06:00:00Z\"}";

        try (var sink = new KafkaEventSink(settingsFor(msg, schd).withReferenceTopic(reference))) {
            var results = sink.send(List.of(
                    event(EventStream.REF, "GLST:G17", gate),
                    event(EventStream.REF, "GLST:G17", null)));

            assertThat(results).containsExactly(DeliveryOutcome.delivered(), DeliveryOutcome.delivered());
        }

        assertThat(KafkaTestBroker.readAll(reference))
                .extracting(KafkaTestBroker.ReadRecord::key, KafkaTestBroker.ReadRecord::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("GLST:G17", gate),
                        org.assertj.core.groups.Tuple.tuple("GLST:G17", null));
        assertThat(KafkaTestBroker.readAll(msg)).isEmpty();
        assertThat(KafkaTestBroker.readAll(schd)).isEmpty();
    }

    @Test
    void eachKeysRecordsAreStoredInSendOrder() {
        var msg = KafkaTestBroker.uniqueTopic("msg-order");
        var schd = KafkaTestBroker.uniqueTopic("schd-order");
        KafkaTestBroker.createTopics(3, msg);
        KafkaTestBroker.createCompactedTopics(3, schd);
        var events = new ArrayList<OutgoingEvent>();
        for (int seq = 0; seq < 200; seq++) {
            var key = Integer.toString(5000 + seq % 10);
            events.add(event(EventStream.MSG, key, "{\"flid\":\"" + key + "\",\"seq\":" + seq + "}"));
        }

        try (var sink = new KafkaEventSink(settingsFor(msg, schd))) {
            assertThat(sink.send(events)).hasSize(200).allMatch(DeliveryOutcome.Delivered.class::isInstance);
        }

        var read = KafkaTestBroker.readAll(msg);
        assertThat(read).hasSize(200);
        var storedByKey = read.stream().collect(Collectors.groupingBy(KafkaTestBroker.ReadRecord::key,
                Collectors.mapping(KafkaTestBroker.ReadRecord::value, Collectors.toList())));
        var sentByKey = events.stream().collect(Collectors.groupingBy(OutgoingEvent::key,
                Collectors.mapping(OutgoingEvent::value, Collectors.toList())));
        assertThat(storedByKey).hasSize(10).isEqualTo(sentByKey);
        var partitionsPerKey = read.stream().collect(Collectors.groupingBy(KafkaTestBroker.ReadRecord::key,
                Collectors.mapping(KafkaTestBroker.ReadRecord::partition, Collectors.toSet())));
        assertThat(partitionsPerKey.values()).allMatch(partitions -> partitions.size() == 1);
    }

    /**
     * Too large is decided by the producer ({@code max.request.size}, kept at or below the topics'
     * {@code max.message.bytes}; see {@link KafkaEventSink}): the record is refused, which counts toward DEAD, and a
     * later record of the same key on the same topic fails with it unsent (it must not overtake the refused one, D-35).
     * The refusal aborts the round's transaction; the round goes again without them, so their neighbours on the same
     * partition and on the other topic are written, and the results keep the order of the events.
     */
    @Test
    void aRecordTooLargeFailsWithTheLaterRecordsOfItsKeyAndTheResultsStayInOrder() {
        var msg = KafkaTestBroker.uniqueTopic("msg-large");
        var schd = KafkaTestBroker.uniqueTopic("schd-large");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd);
        var settings = settingsFor(msg, schd).withProducerProperties(Map.of("max.request.size", "20000"));
        var events = List.of(
                event(EventStream.MSG, "1", "{\"n\":1}"),
                event(EventStream.MSG, "2", "{\"n\":2}"),
                event(EventStream.MSG, "3", "{\"pad\":\"" + "x".repeat(30_000) + "\"}"),
                event(EventStream.SCHD, "3", "{\"n\":3}"),
                event(EventStream.MSG, "4", "{\"n\":4}"),
                event(EventStream.MSG, "3", "{\"n\":5}"));

        List<DeliveryOutcome> results;
        try (var sink = new KafkaEventSink(settings)) {
            results = sink.send(events);
        }

        assertThat(results).hasSize(6);
        assertThat(results.get(5)).isInstanceOfSatisfying(DeliveryOutcome.Failed.class, failed -> assertThat(failed.reason())
                .startsWith("not sent").contains("earlier record of FLID 3"));
        assertThat(results.get(2)).isInstanceOfSatisfying(DeliveryOutcome.Failed.class, failed -> assertThat(failed.reason())
                .startsWith("RecordTooLargeException").contains("max.request.size"));
        assertThat(List.of(results.get(2), results.get(5))).as("a refusal of the record counts toward DEAD (D-66)")
                .allSatisfy(result -> assertThat(((DeliveryOutcome.Failed) result).outage()).isFalse());
        assertThat(List.of(results.get(0), results.get(1), results.get(3), results.get(4)))
                .allMatch(DeliveryOutcome.Delivered.class::isInstance);
        assertThat(KafkaTestBroker.readAll(msg)).extracting(KafkaTestBroker.ReadRecord::key)
                .containsExactly("1", "2", "4");
        assertThat(KafkaTestBroker.readAll(schd)).extracting(KafkaTestBroker.ReadRecord::key).containsExactly("3");
    }

    /**
     * D-109: every instance of a site uses one transactional id, so the instance that becomes active fences the
     * producer of the one it replaced with its first round. The old one's later round — say, records it held when it
     * froze, sent once it thawed — is refused by the broker: nothing of it is written, not even for a consumer that
     * reads uncommitted records, and it fails as an outage. The old sink's next producer would fence the new one in
     * turn, which is why only the lease's holder sends (the runner's {@code LeaseGuardedSink}).
     */
    @Test
    void theInstanceThatTookOverFencesTheProducerOfTheOneItReplaced() {
        var msg = KafkaTestBroker.uniqueTopic("msg-fenced");
        var schd = KafkaTestBroker.uniqueTopic("schd-fenced");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd);
        var settings = settingsFor(msg, schd);
        try (var replaced = new KafkaEventSink(settings); var active = new KafkaEventSink(settings)) {
            assertThat(replaced.send(List.of(event(EventStream.SCHD, "7", "{\"v\":1}"))))
                    .containsExactly(DeliveryOutcome.delivered());
            assertThat(active.send(List.of(event(EventStream.SCHD, "7", "{\"v\":2}"))))
                    .containsExactly(DeliveryOutcome.delivered());

            var stale = replaced.send(List.of(event(EventStream.SCHD, "7", "{\"v\":1}"),
                    event(EventStream.MSG, "7", "{\"v\":1}")));

            assertThat(stale).allSatisfy(result -> assertThat(result).isInstanceOfSatisfying(DeliveryOutcome.Failed.class,
                    failed -> assertThat(failed.outage()).isTrue()));
        }
        assertThat(KafkaTestBroker.readAllUncommitted(schd)).extracting(KafkaTestBroker.ReadRecord::value)
                .as("the last value of FLID 7 is the active instance's").containsExactly("{\"v\":1}", "{\"v\":2}");
        assertThat(KafkaTestBroker.readAllUncommitted(msg)).isEmpty();
    }

    /** A missing topic is an outage: the round fails whole within the bound, no attempt used, nothing written. */
    @Test
    void aMissingTopicFailsItsRoundAsAnOutageWithinTheBound() {
        var msg = KafkaTestBroker.uniqueTopic("msg-missing");
        var schd = KafkaTestBroker.uniqueTopic("schd-present");
        KafkaTestBroker.createCompactedTopics(1, schd);
        var settings = settingsFor(msg, schd)
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(1));

        List<DeliveryOutcome> results;
        long started = System.nanoTime();
        try (var sink = new KafkaEventSink(settings)) {
            results = sink.send(List.of(
                    event(EventStream.SCHD, "1", "{\"n\":1}"),
                    event(EventStream.MSG, "1", "{\"n\":1}")));
        }
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(results.get(1)).isInstanceOfSatisfying(DeliveryOutcome.Failed.class,
                failed -> assertThat(failed.reason()).contains(msg));
        assertThat(results).allSatisfy(result -> assertThat(result).isInstanceOfSatisfying(DeliveryOutcome.Failed.class,
                failed -> assertThat(failed.outage()).isTrue()));
        assertThat(KafkaTestBroker.readAll(schd)).isEmpty();
        assertThat(elapsed).isLessThan(settings.sendBound().plusSeconds(2));
    }
}
