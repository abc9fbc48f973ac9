package io.msgx.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.adapter.kafka.KafkaEventSink;
import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.delivery.DispatchSettings;
import io.msgx.pipeline.delivery.Dispatcher;
import io.msgx.pipeline.port.EventSink;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.PublishedValues;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.item;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static io.msgx.pipeline.testing.SisMessages.withList;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mailbox (MariaDB) → pipeline → PostgreSQL → dispatcher → Kafka, every part real. The {@code schd} topic,
 * read to its end, must be the flight state in PostgreSQL. {@link KafkaDeliveryOnOracleEndToEndTest} runs the same
 * tests with the Oracle adapter as the store.
 */
@Slow
class KafkaDeliveryEndToEndTest extends EndToEndOnEitherStore {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();
    private final ObjectMapper json = new ObjectMapper();
    private final List<KafkaEventSink> sinks = new ArrayList<>();
    private String msgTopic;
    private String schdTopic;
    private String referenceTopic;

    @BeforeEach
    void topics() {
        msgTopic = KafkaTestBroker.uniqueTopic("msg");
        schdTopic = KafkaTestBroker.uniqueTopic("schd");
        referenceTopic = KafkaTestBroker.uniqueTopic("reference");
        KafkaTestBroker.createTopics(3, msgTopic);
        KafkaTestBroker.createCompactedTopics(3, schdTopic, referenceTopic);
    }

    @AfterEach
    void closeSinks() {
        sinks.forEach(KafkaEventSink::close);
    }

    @Test
    void reading_the_schd_topic_to_its_end_rebuilds_the_flight_state_in_postgres() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        var dispatcher = dispatcher(store, sink(KafkaTestBroker.bootstrapServers(), KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT));
        deliverADay();

        pipeline.runUntilQuiet();
        dispatchUntilIdle(dispatcher);

        var rebuilt = rebuildFromSchdTopic();
        var flights = allFlights(store);
        var active = flights.stream().filter(FlightState::isActive).toList();
        assertThat(rebuilt.keySet()).as("active flights, and no deleted one").containsExactlyInAnyOrderElementsOf(
                active.stream().map(f -> f.flid().value()).toList());
        for (var flight : active) {
            var value = rebuilt.get(flight.flid().value());
            assertThat(value.get("stateVersion").asLong()).isEqualTo(flight.stateVersion());
            assertThat(value.get("state").asText()).isEqualTo("ACTIVE");
            for (var field : FlightField.values()) {
                var stored = flight.fields().valueOf(field);
                assertThat(PublishedValues.asSent(value, field.code(), stored == null ? "" : stored))
                        .as(flight.flid() + " " + field).isEqualTo(stored == null ? "" : stored);
            }
            for (var list : FlightList.values()) {
                assertThat(value.get(list.code()).size()).as(flight.flid() + " " + list)
                        .isEqualTo(flight.lists().get(list).size());
            }
            if (flight.carriesMafl()) {
                var expected = MaflProjection.of(flight.flid(), flights).stream().map(e -> e.flid().value()).toList();
                var published = new ArrayList<String>();
                value.get("mafl").forEach(entry -> published.add(entry.get("flid").asText()));
                assertThat(published).as("MAFL of " + flight.flid()).isEqualTo(expected);
            } else {
                assertThat(value.has("mafl")).isFalse();
                assertThat(value.get("maid").asText()).isEqualTo(flight.fields().valueOf(FlightField.MAID));
            }
        }
        assertThat(rebuilt.get("1001").get("mafl").size()).as("the master kept one child").isEqualTo(1);

        var notifications = KafkaTestBroker.readAll(msgTopic);
        var lastVersion = new HashMap<String, Long>();
        for (var record : notifications) {
            var value = json.readTree(record.value());
            long version = value.get("stateVersion").asLong();
            assertThat(version).as("msg order for " + record.key()).isGreaterThan(lastVersion.getOrDefault(record.key(), 0L));
            lastVersion.put(record.key(), version);
        }
        assertThat(lastVersion.get("1001")).isEqualTo(flight(flights, "1001").stateVersion());
        assertThat(services.countInStore("select count(*) from msg_event where status <> 'SENT'")).isZero();
    }

    @Test
    void reference_changes_reach_the_reference_topic_by_type_and_key_and_a_del_is_a_tombstone() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        var dispatcher = dispatcher(store, sink(KafkaTestBroker.bootstrapServers(), KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT));
        String meta = "<MSG><META><SNDR>AODB</SNDR><SEQN>%d</SEQN><DTTM>20240311060000</DTTM><TYPE>GLST</TYPE>"
                + "<STYP>%s</STYP></META>";
        long add = services.deliver(meta.formatted(1, "ADD") + "<RECS>2</RECS><GLST><GCOD>G1</GCOD><GNMC>一号</GNMC></GLST>"
                + "<GLST><GCOD>G2</GCOD><GTML MVIN=\"A\">T2</GTML></GLST></MSG>");
        long upd = services.deliver(meta.formatted(2, "UPD") + "<RECS>1</RECS><GLST><GCOD>G1</GCOD><GNMC>壹号</GNMC></GLST></MSG>");
        long del = services.deliver(meta.formatted(3, "DEL") + "<RECS>1</RECS><GLST><GCOD>G2</GCOD></GLST></MSG>");

        pipeline.runUntilQuiet();
        dispatchUntilIdle(dispatcher);

        var records = KafkaTestBroker.readAll(referenceTopic);
        var latest = new HashMap<String, String>();
        for (var record : records) {
            latest.put(record.key(), record.value());
        }
        assertThat(latest.keySet()).containsExactlyInAnyOrder("GLST:G1", "GLST:G2");
        assertThat(latest.get("GLST:G2")).as("a DEL is a tombstone").isNull();
        var g1 = json.readTree(latest.get("GLST:G1"));
        assertThat(g1.get("rtype").asText()).isEqualTo("GLST");
        assertThat(g1.get("rkey").asText()).isEqualTo("G1");
        assertThat(g1.get("record").toString()).isEqualTo("{\"GCOD\":\"G1\",\"GNMC\":\"壹号\"}");
        assertThat(g1.get("msgId").asLong()).isEqualTo(upd);
        assertThat(add).isLessThan(del);
        assertThat(KafkaTestBroker.readAll(msgTopic)).as("reference data is not a flight change").isEmpty();
        assertThat(services.countInStore("select count(*) from msg_event where status <> 'SENT'")).isZero();
    }

    @Test
    void while_the_broker_is_unreachable_nothing_is_marked_sent_and_afterwards_everything_arrives() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);
        deliverADay();
        pipeline.runUntilQuiet();
        long notifications = services.countInStore("select count(*) from msg_event where target = 'KAFKA:msg'");

        var down = dispatcher(store, sink("127.0.0.1:1", Duration.ofSeconds(2)));
        var failed = down.dispatchOnce();
        assertThat(failed.outage()).as("an unreachable broker is an outage (D-66)").isTrue();
        assertThat(failed.failed() + failed.dead()).isZero();
        assertThat(services.countInStore("select count(*) from msg_event where status = 'SENT'")).isZero();
        assertThat(services.countInStore("select count(*) from msg_event where attempts > 0 or next_attempt_at is not null"
                + " or status = 'DEAD'")).as("the outage used no attempt and set no retry").isZero();

        clock.tick(Duration.ofSeconds(1));
        dispatchUntilIdle(dispatcher(store, sink(KafkaTestBroker.bootstrapServers(), KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT)));

        assertThat(services.countInStore("select count(*) from msg_event where status <> 'SENT'")).isZero();
        var eventIds = new java.util.HashSet<Long>();
        for (var record : KafkaTestBroker.readAll(msgTopic)) {
            eventIds.add(json.readTree(record.value()).get("eventId").asLong());
        }
        assertThat(eventIds).as("every notification arrived; duplicates would be allowed, loss is not")
                .hasSize((int) notifications);
        assertThat(rebuildFromSchdTopic().keySet()).containsExactlyInAnyOrder("1001", "1002", "2001", "3001");
    }

    @Test
    void on_a_real_broker_a_refused_head_pauses_only_its_flid_and_dies_after_the_cap() throws Exception {
        var store = services.store(clock);
        var tooLarge = "{\"flid\":\"A\",\"stateVersion\":1,\"pad\":\"" + "x".repeat(1_100_000) + "\"}";
        long a1 = notify(store, "A", 1, tooLarge);
        notify(store, "A", 2, "{\"flid\":\"A\",\"stateVersion\":2}");
        notify(store, "B", 1, "{\"flid\":\"B\",\"stateVersion\":1}");
        notify(store, "B", 2, "{\"flid\":\"B\",\"stateVersion\":2}");
        var retry = new io.msgx.pipeline.retry.RetryPolicy(io.msgx.pipeline.retry.RetryPolicy.DELIVERY, 2,
                List.of(Duration.ofSeconds(1)));
        var dispatcher = new Dispatcher(store, sink(KafkaTestBroker.bootstrapServers(), KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT),
                new DispatchSettings(500, 500, retry), clock, PipelineMetrics.NONE);

        dispatcher.dispatchOnce();
        dispatcher.dispatchOnce();
        assertThat(keysAndVersions(msgTopic)).as("B goes on; A waits behind its refused head")
                .containsExactly("B:1", "B:2");

        clock.tick(Duration.ofSeconds(1));
        dispatchUntilIdle(dispatcher);
        assertThat(services.countInStore("select count(*) from msg_event where status = 'DEAD' and event_id = " + a1))
                .isEqualTo(1);
        assertThat(keysAndVersions(msgTopic)).as("after its head is parked dead, A's next event goes out")
                .containsExactly("A:2", "B:1", "B:2");
    }

    @Test
    void on_a_real_broker_a_projection_replaced_while_in_flight_is_sent_again_at_its_new_version() throws Exception {
        var store = services.store(clock);
        project(store, "A", 1);
        var real = sink(KafkaTestBroker.bootstrapServers(), KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT);
        var replacedOnce = new java.util.concurrent.atomic.AtomicBoolean();
        EventSink committingMeanwhile = events -> {
            var results = real.send(events);
            if (replacedOnce.compareAndSet(false, true)) {
                project(store, "A", 2);
            }
            return results;
        };
        var dispatcher = dispatcher(store, committingMeanwhile);

        assertThat(dispatcher.dispatchOnce().superseded()).isEqualTo(1);
        assertThat(services.countInStore("select count(*) from msg_event where target = 'KAFKA:schd' "
                + "and status = 'PENDING' and state_version = 2")).isEqualTo(1);
        dispatchUntilIdle(dispatcher);

        var versions = KafkaTestBroker.readAll(schdTopic).stream().map(r -> r.value()).toList();
        assertThat(versions).containsExactly("{\"v\":1}", "{\"v\":2}");
        assertThat(services.countInStore("select count(*) from msg_event where status = 'PENDING'")).isZero();
    }

    private long notify(PipelineStore store, String flid, long version, String payload) {
        return store.inTransaction(tx -> tx.notifications().append(new io.msgx.pipeline.record.OutboxEvent(
                io.msgx.pipeline.record.OutboxTarget.KAFKA_MSG, FlightId.of(flid),
                io.msgx.pipeline.record.OutboxEvent.EventType.UPSERT, version, 1, payload, clock.instant())));
    }

    private void project(PipelineStore store, String flid, long version) {
        store.inTransaction(tx -> tx.projections().upsertProjection(new io.msgx.pipeline.record.OutboxEvent(
                io.msgx.pipeline.record.OutboxTarget.KAFKA_SCHD, FlightId.of(flid),
                io.msgx.pipeline.record.OutboxEvent.EventType.UPSERT, version, 1, "{\"v\":" + version + "}",
                clock.instant())));
    }

    private List<String> keysAndVersions(String topic) throws Exception {
        var seen = new ArrayList<String>();
        for (var record : KafkaTestBroker.readAll(topic)) {
            seen.add(record.key() + ":" + json.readTree(record.value()).get("stateVersion").asLong());
        }
        return seen.stream().sorted().toList();
    }

    /** A master with three children (one leaves, one is deleted), plain flights, operations, a deletion. */
    private void deliverADay() throws Exception {
        services.deliver(sis.schedule(
                fltr("1001", withList(patch("SODT", "11MAR240835", "FLNO", "CA1405", "STND", "504"),
                        FlightList.GTDT, item(1, "GATE", "G28"), item(2, "GATE", "G28"))),
                fltr("1002", "11MAR240835", "FLNO", "MU3001", "MAID", "1001", "CSOP", "MU", "CSFT", "MU3001"),
                fltr("1003", "11MAR240835", "FLNO", "FM9001", "MAID", "1001"),
                fltr("1004", "11MAR240835", "FLNO", "ZH9001", "MAID", "1001"),
                fltr("2001", "11MAR240900", "FLNO", "HU7181"),
                fltr("2002", "11MAR240905", "FLNO", "HU7182")));
        for (int i = 0; i < 5; i++) {
            services.deliver(sis.flop(FlopSubtype.STND, "2001", patch("STND", "6" + i)));
        }
        services.deliver(sis.flop(FlopSubtype.EOBT, "1001", patch("EOBT", "11MAR240820")));
        services.deliver(sis.flop(FlopSubtype.CSHR, "1003", patch("MAID", "")));
        services.deliver(sis.fdel("1004"));
        services.deliver(sis.fdel("1003"));
        services.deliver(sis.fdel("2002"));
        services.deliver(sis.adft(fltr("3001", "11MAR241500", "FLNO", "3U8888")));
    }

    private Map<String, JsonNode> rebuildFromSchdTopic() throws Exception {
        var state = new LinkedHashMap<String, JsonNode>();
        for (var record : KafkaTestBroker.readAll(schdTopic)) {
            if (record.value() == null) {
                state.remove(record.key());
            } else {
                state.put(record.key(), json.readTree(record.value()));
            }
        }
        return state;
    }

    private KafkaEventSink sink(String bootstrap, Duration deliveryTimeout) {
        var request = deliveryTimeout.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(1) : Duration.ofSeconds(10);
        var maxBlock = deliveryTimeout.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(1) : Duration.ofSeconds(10);
        var sink = new KafkaEventSink(new KafkaSinkSettings(bootstrap, "msgx-e2e", msgTopic, schdTopic, referenceTopic,
                deliveryTimeout, request, maxBlock, KafkaSinkSettings.DEFAULT_LINGER, Map.of()));
        sinks.add(sink);
        return sink;
    }

    private Dispatcher dispatcher(PipelineStore store, EventSink sink) {
        return new Dispatcher(store, sink, DispatchSettings.defaults(), clock, PipelineMetrics.NONE);
    }

    private static void dispatchUntilIdle(Dispatcher dispatcher) {
        for (int round = 0; round < 50; round++) {
            if (dispatcher.dispatchOnce().idle()) {
                return;
            }
        }
        throw new AssertionError("the dispatcher did not become idle in 50 rounds");
    }

    private List<FlightState> allFlights(PipelineStore store) throws Exception {
        var ids = new ArrayList<FlightId>();
        try (var connection = services.storeDataSource().getConnection();
             var rows = connection.createStatement().executeQuery("select flid from flight_schd")) {
            while (rows.next()) {
                ids.add(FlightId.of(rows.getString(1)));
            }
        }
        return store.inTransaction(tx -> tx.flights().find(ids));
    }

    private static FlightState flight(List<FlightState> flights, String flid) {
        return flights.stream().filter(f -> f.flid().value().equals(flid)).findFirst().orElseThrow();
    }
}
