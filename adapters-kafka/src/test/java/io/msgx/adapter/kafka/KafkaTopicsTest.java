package io.msgx.adapter.kafka;

import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Topic provisioning against the real broker. */
class KafkaTopicsTest {

    private static KafkaSinkSettings settings(String msg, String schd) {
        return KafkaSinkSettings.defaults(KafkaTestBroker.bootstrapServers()).withTopics(msg, schd)
                .withReferenceTopic(KafkaTestBroker.uniqueTopic("ensure-reference"));
    }

    @Test
    void createsAPlainMsgTopicAndACompactedSchdTopicAndIsIdempotent() throws Exception {
        var settings = settings(KafkaTestBroker.uniqueTopic("ensure-msg"), KafkaTestBroker.uniqueTopic("ensure-schd"));

        var first = KafkaTopics.ensure(settings, 3, (short) 1);
        var second = KafkaTopics.ensure(settings, 3, (short) 1);

        assertThat(first.created()).containsExactlyInAnyOrder(settings.msgTopic(), settings.schdTopic(),
                settings.referenceTopic());
        assertThat(first.existing()).isEmpty();
        assertThat(second.created()).isEmpty();
        assertThat(second.existing()).containsExactlyInAnyOrder(settings.msgTopic(), settings.schdTopic(),
                settings.referenceTopic());
        try (var admin = KafkaTestBroker.admin()) {
            assertThat(cleanupPolicy(admin, settings.referenceTopic())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
            assertThat(cleanupPolicy(admin, settings.schdTopic())).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
            assertThat(cleanupPolicy(admin, settings.msgTopic())).isEqualTo(TopicConfig.CLEANUP_POLICY_DELETE);
            var partitions = admin.describeTopics(List.of(settings.schdTopic())).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(settings.schdTopic()).partitions();
            assertThat(partitions).hasSize(3);
        }
    }

    @Test
    void anExistingSchdTopicThatIsNotCompactedIsAnError() {
        var settings = settings(KafkaTestBroker.uniqueTopic("ensure-msg"), KafkaTestBroker.uniqueTopic("plain-schd"));
        KafkaTestBroker.createTopics(1, settings.schdTopic());

        assertThatThrownBy(() -> KafkaTopics.ensure(settings, 1, (short) 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("msgx.kafka.topic.schd")
                .hasMessageContaining("cleanup.policy=compact");
    }

    @Test
    void anExistingReferenceTopicThatIsNotCompactedIsAnError() {
        var settings = settings(KafkaTestBroker.uniqueTopic("ensure-msg"), KafkaTestBroker.uniqueTopic("ensure-schd"));
        KafkaTestBroker.createTopics(1, settings.referenceTopic());

        assertThatThrownBy(() -> KafkaTopics.ensure(settings, 1, (short) 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("msgx.kafka.topic.reference")
                .hasMessageContaining("RTYPE:RKEY")
                .hasMessageContaining("cleanup.policy=compact");
    }

    @Test
    void aTopicThatWouldRefuseTheProducersBatchesIsAnError() {
        var settings = settings(KafkaTestBroker.uniqueTopic("small-msg"), KafkaTestBroker.uniqueTopic("ensure-schd"));
        KafkaTestBroker.createTopics(1, Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "100000"), settings.msgTopic());

        assertThatThrownBy(() -> KafkaTopics.ensure(settings, 1, (short) 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(settings.msgTopic())
                .hasMessageContaining("max.message.bytes=100000")
                .hasMessageContaining("msgx.kafka.producer.max.request.size");
        var fitting = settings.withProducerProperties(Map.of("max.request.size", "100000"));
        assertThat(KafkaTopics.ensure(fitting, 1, (short) 1).existing()).contains(settings.msgTopic());
    }

    @Test
    void refusesNonsensicalSizes() {
        var settings = settings("a", "b");
        try (var admin = KafkaTestBroker.admin()) {
            assertThatThrownBy(() -> KafkaTopics.ensure(admin, settings, 0, (short) 1, settings.deliveryTimeout()))
                    .hasMessageContaining("partitions");
            assertThatThrownBy(() -> KafkaTopics.ensure(admin, settings, 1, (short) 0, settings.deliveryTimeout()))
                    .hasMessageContaining("replication");
        }
    }

    private static String cleanupPolicy(org.apache.kafka.clients.admin.Admin admin, String topic) throws Exception {
        var resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
                .get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
    }
}
