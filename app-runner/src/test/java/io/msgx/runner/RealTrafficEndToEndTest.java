package io.msgx.runner;

import ch.qos.logback.classic.Level;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.pipeline.testing.PublishedContract;
import io.msgx.pipeline.testing.RealForms;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.security.LogCapture;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22's judge: real AODB traffic, one message of every kind sis-format.md version 2 names, in its real form,
 * written into a MariaDB mailbox and taken by the runner with its default settings, through PostgreSQL, to a real
 * Kafka broker. Every message ends as the contract says, the mailbox drains in seconds, and every value is in the
 * store (read back from FLIGHT_SCHD, its lists and REF_MASTER) and on the topics.
 * {@code RealTrafficOnOracleEndToEndTest} runs the same on the Oracle adapter.
 */
@Slow
class RealTrafficEndToEndTest extends EndToEndOnEitherStore {

    private final RealForms corpus = RealForms.load();

    @Test
    void every_kind_ends_as_the_contract_says_and_every_value_reaches_the_store_and_the_topics() throws Exception {
        var ids = new LinkedHashMap<Long, RealForms.Message>();
        for (var message : corpus.messages()) {
            ids.put(message.status() == null ? services.deliver(message.xml())
                    : services.deliver(message.xml(), message.status()), message);
        }
        var topics = Map.of(Keys.KAFKA_TOPIC_MSG, KafkaTestBroker.uniqueTopic("msg"),
                Keys.KAFKA_TOPIC_SCHD, KafkaTestBroker.uniqueTopic("schd"),
                Keys.KAFKA_TOPIC_REFERENCE, KafkaTestBroker.uniqueTopic("reference"));
        KafkaTestBroker.createTopics(3, topics.get(Keys.KAFKA_TOPIC_MSG));
        KafkaTestBroker.createCompactedTopics(3, topics.get(Keys.KAFKA_TOPIC_SCHD), topics.get(Keys.KAFKA_TOPIC_REFERENCE));
        var keys = services.runnerKeysWithKafka();
        keys.put(Keys.KAFKA_BOOTSTRAP, KafkaTestBroker.bootstrapServers());
        keys.putAll(topics);

        Duration drained;
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.migrate();
            var started = Instant.now();
            exchange.start();
            BuiltRunner.await("every real-form message ended", () -> openOrUnknown(ids.keySet()) == 0);
            drained = Duration.between(started, Instant.now());
            BuiltRunner.await("every outbox event delivered", () -> undelivered() == 0);
        }

        for (var entry : ids.entrySet()) {
            assertThat(services.countInStore("select count(*) from proc_state where msg_id = " + entry.getKey()
                    + " and state = '" + entry.getValue().expectedState() + "'"))
                    .as(entry.getValue().file() + " ends " + entry.getValue().expectedState() + " ("
                            + stateOf(entry.getKey()) + ")")
                    .isEqualTo(1);
        }
        for (var entry : ids.entrySet()) {
            for (var name : entry.getValue().outcomeNames()) {
                assertThat(services.countInStore("select count(*) from proc_state where msg_id = " + entry.getKey()
                        + " and last_error like '%" + name + "%'")).as(entry.getValue().file() + " names " + name)
                        .isEqualTo(1);
            }
        }
        assertThat(drained).as("the mailbox drains in seconds").isLessThan(Duration.ofSeconds(30));
        System.out.printf("%s: %d real-form messages drained in %d ms%n", getClass().getSimpleName(), ids.size(),
                drained.toMillis());

        for (var topic : PublishedContract.Topic.values()) {
            var records = KafkaTestBroker.readAll(topics.get(switch (topic) {
                case MSG -> Keys.KAFKA_TOPIC_MSG;
                case SCHD -> Keys.KAFKA_TOPIC_SCHD;
                case REFERENCE -> Keys.KAFKA_TOPIC_REFERENCE;
            }));
            assertThat(records).as(topic + " records").isNotEmpty();
            for (var record : records) {
                var violations = new java.util.ArrayList<String>(PublishedContract.headerViolations(topic, record.key(),
                        record.headers(), record.value() == null));
                if (record.value() != null) {
                    violations.addAll(PublishedContract.violations(topic, record.value()));
                    assertThat(Instant.parse(record.headers().get("ce_time")))
                            .as("%s %s: ce_time is updatedAt", topic, record.key())
                            .isEqualTo(Instant.parse(new com.fasterxml.jackson.databind.ObjectMapper()
                                    .readTree(record.value()).get("updatedAt").asText()));
                }
                assertThat(violations).as("%s record %s: %s %s", topic, record.key(), record.headers(), record.value())
                        .isEmpty();
            }
        }

        var schd = lastByKey(topics.get(Keys.KAFKA_TOPIC_SCHD));
        corpus.flightValues().forEach((flid, values) -> assertThat(RealForms.missingFrom(schd.get(flid), values))
                .as("values of flight " + flid + " missing from the schd topic: " + schd.get(flid)).isEmpty());
        corpus.deletedFlights().forEach(flid -> assertThat(schd).as("tombstone of " + flid).containsEntry(flid, null));
        var store = services.store(SettableClock.atExampleDay());
        var stored = store.inTransaction(tx -> tx.flights().find(
                corpus.flightValues().keySet().stream().map(FlightId::of).toList()));
        assertThat(stored).hasSize(corpus.flightValues().size());
        for (var flight : stored) {
            var read = new FlightEventJson(OperationDayRule.DEFAULT_ZONE).state(flight, null, null, Instant.EPOCH);
            assertThat(RealForms.missingFrom(read, corpus.flightValues().get(flight.flid().value())))
                    .as("values of flight " + flight.flid() + " missing from FLIGHT_SCHD and its lists: " + read).isEmpty();
        }

        var reference = lastByKey(topics.get(Keys.KAFKA_TOPIC_REFERENCE));
        corpus.referenceValues().forEach((key, values) -> assertThat(RealForms.missingFrom(reference.get(key), values))
                .as("values of " + key + " missing from the reference topic: " + reference.get(key)).isEmpty());
        corpus.deletedReferences().forEach(key -> assertThat(reference).as("tombstone of " + key).containsEntry(key, null));
        for (var key : corpus.referenceValues().keySet()) {
            var typeAndKey = key.split(":", 2);
            assertThat(RealForms.missingFrom(referenceRow(typeAndKey[0], typeAndKey[1]), corpus.referenceValues().get(key)))
                    .as("values of " + key + " missing from REF_MASTER").isEmpty();
        }
        assertThat(services.countInStore("select count(*) from ref_master where rtype = 'GLST' and rkey = 'G18'")).isZero();
    }

    @Test
    void an_unknown_kind_is_loud_at_once_the_log_names_the_line_that_ignores_it_and_a_gauge_says_the_head_is_held()
            throws Exception {
        long unknown = services.deliver(corpus.messages().get(0).xml().replace("<TYPE>ABDG</TYPE>", "<TYPE>WXYZ</TYPE>")
                .replace("<STYP>DNLD</STYP>", "<STYP>UPD</STYP>"));
        try (var log = LogCapture.start(Level.ERROR);
             var exchange = MsgExchange.builder().config(services.runnerKeys()).build()) {
            exchange.migrate();
            exchange.start();
            BuiltRunner.await("the unknown kind failed once", () -> failedUnsupported(unknown));
            BuiltRunner.await("the head gauge says why", () -> exchange.meterRegistry().find("msgx.pipeline.head.blocked")
                    .tag("reason", "unsupported").gauge() != null
                    && exchange.meterRegistry().get("msgx.pipeline.head.blocked").tag("reason", "unsupported").gauge().value() == 1.0);

            assertThat(log.text()).contains("Message " + unknown + ": WXYZ-UPD is a kind no processor handles",
                    "msgx.pipeline.ignore: LDM-*,REGN-*,RSTA-*,EROR-*,WXYZ-UPD",
                    "MSGX_PIPELINE_IGNORE=LDM-*,REGN-*,RSTA-*,EROR-*,WXYZ-UPD");
        }
    }

    private boolean failedUnsupported(long id) {
        try {
            return services.countInStore("select count(*) from proc_state where msg_id = " + id
                    + " and state = 'FAILED' and error_class = 'UNSUPPORTED'") == 1;
        } catch (SQLException e) {
            return false;
        }
    }

    private long openOrUnknown(Set<Long> ids) {
        try {
            long ended = services.countInStore("select count(*) from proc_state where state in ('SUCCEEDED', 'SKIPPED', "
                    + "'DEAD') and msg_id between " + ids.stream().min(Long::compare).orElseThrow() + " and "
                    + ids.stream().max(Long::compare).orElseThrow());
            return ids.size() - ended;
        } catch (SQLException e) {
            return -1;
        }
    }

    private long undelivered() {
        try {
            return services.countInStore("select count(*) from msg_event where status <> 'SENT'");
        } catch (SQLException e) {
            return -1;
        }
    }

    private String stateOf(long id) throws SQLException {
        try (var connection = services.storeDataSource().getConnection();
             var rows = connection.createStatement().executeQuery(
                     "select state, error_class, last_error from proc_state where msg_id = " + id)) {
            return rows.next() ? rows.getString(1) + " " + rows.getString(2) + " " + rows.getString(3) : "not enqueued";
        }
    }

    private String referenceRow(String type, String key) throws SQLException {
        try (var connection = services.storeDataSource().getConnection();
             var statement = connection.prepareStatement("select fields from ref_master where rtype = ? and rkey = ?")) {
            statement.setString(1, type);
            statement.setString(2, key);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    /** The last value of every key of a topic read to its end (null for a tombstone). */
    private static Map<String, String> lastByKey(String topic) {
        var last = new LinkedHashMap<String, String>();
        KafkaTestBroker.readAll(topic).forEach(record -> last.put(record.key(), record.value()));
        return last;
    }
}
