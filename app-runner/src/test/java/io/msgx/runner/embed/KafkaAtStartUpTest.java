package io.msgx.runner.embed;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.runner.RealServices;
import io.msgx.runner.config.Keys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** D-71: start-up refuses a Kafka that does not answer, or that lacks a topic, with the key to check. */
class KafkaAtStartUpTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void an_unreachable_bootstrap_refuses_the_start_within_the_request_timeout() {
        var keys = services.runnerKeysWithKafka();
        keys.put(Keys.KAFKA_BOOTSTRAP, "127.0.0.1:1");
        keys.put(Keys.KAFKA_REQUEST_TIMEOUT, "1s");
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            var started = Instant.now();
            assertThatThrownBy(exchange::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Kafka is required and does not answer at start-up")
                    .hasMessageContaining("127.0.0.1:1")
                    .hasMessageContaining("msgx.kafka.bootstrap-servers")
                    .hasMessageContaining("msgx.kafka.enabled=false");
            assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(10));
            assertThat(exchange.isActive()).isFalse();
        }
    }

    @Test
    void a_missing_topic_refuses_the_start_naming_it_its_key_and_the_command_that_creates_it() throws Exception {
        var msg = KafkaTestBroker.uniqueTopic("start-msg");
        var schd = KafkaTestBroker.uniqueTopic("start-schd");
        var reference = KafkaTestBroker.uniqueTopic("start-reference");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd);
        var keys = keysPublishingTo(msg, schd, reference);
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            assertThatThrownBy(exchange::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("lacks the topic(s)")
                    .hasMessageContaining(reference + " (msgx.kafka.topic.reference): kafka-topics.sh --bootstrap-server "
                            + KafkaTestBroker.bootstrapServers() + " --create --topic " + reference
                            + " --config cleanup.policy=compact")
                    .hasMessageNotContaining(schd + " (");
        }

        KafkaTestBroker.createCompactedTopics(1, reference);
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.start();
            io.msgx.runner.BuiltRunner.await("active once every topic is there", exchange::isActive);
        }
    }

    @Test
    void a_schd_or_reference_topic_that_is_not_compacted_refuses_the_start_naming_it_and_the_command_that_fixes_it() {
        var msg = KafkaTestBroker.uniqueTopic("start-msg");
        var schd = KafkaTestBroker.uniqueTopic("start-schd");
        var reference = KafkaTestBroker.uniqueTopic("start-reference");
        KafkaTestBroker.createTopics(1, msg, schd);
        KafkaTestBroker.createCompactedTopics(1, reference);
        var keys = keysPublishingTo(msg, schd, reference);
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            assertThatThrownBy(exchange::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Topic " + schd + " (msgx.kafka.topic.schd) exists with cleanup.policy=delete")
                    .hasMessageContaining("kafka-configs.sh --alter --entity-type topics --entity-name " + schd
                            + " --add-config cleanup.policy=compact");
            assertThat(exchange.isActive()).isFalse();
        }
    }

    /** The runner's keys with the three topics it publishes to. */
    private java.util.Map<String, String> keysPublishingTo(String msg, String schd, String reference) {
        var keys = services.runnerKeysWithKafka();
        keys.put(Keys.KAFKA_TOPIC_MSG, msg);
        keys.put(Keys.KAFKA_TOPIC_SCHD, schd);
        keys.put(Keys.KAFKA_TOPIC_REFERENCE, reference);
        return keys;
    }
}
