package io.msgx.adapter.kafka;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every invalid setting is refused with its key in the message. */
class KafkaSinkSettingsTest {

    private static final KafkaSinkSettings VALID = KafkaSinkSettings.defaults("broker1:9092, broker2:9093");

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(VALID.bootstrapServers()).isEqualTo("broker1:9092,broker2:9093");
        assertThat(VALID.msgTopic()).isEqualTo("msgx.flight.msg");
        assertThat(VALID.schdTopic()).isEqualTo("msgx.flight.schd");
        assertThat(VALID.referenceTopic()).isEqualTo("msgx.reference");
        assertThat(VALID.deliveryTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(VALID.maxBlock()).isEqualTo(Duration.ofSeconds(10));
        assertThat(VALID.acknowledgementBound()).isEqualTo(Duration.ofSeconds(41));
        assertThat(VALID.sendBound()).as("a round's transaction started, ended and, after a refusal, started again")
                .isEqualTo(Duration.ofSeconds(71));
        assertThat(VALID.transactionalId()).isEqualTo("msgexchange:msgx.flight.msg");
    }

    @Test
    void theProducerIsIdempotentWithAcksAllAndTheBoundedTimeouts() {
        assertThat(VALID.producerConfig())
                .containsEntry("enable.idempotence", "true")
                .containsEntry("transactional.id", "msgexchange:msgx.flight.msg")
                .containsEntry("acks", "all")
                .containsEntry("max.in.flight.requests.per.connection", "5")
                .containsEntry("delivery.timeout.ms", "30000")
                .containsEntry("request.timeout.ms", "10000")
                .containsEntry("max.block.ms", "10000")
                .containsEntry("linger.ms", "5");
    }

    @Test
    void aBrokerThatComesBackIsTriedAgainWithinAQuarterSecondUnlessTheSiteSaysOtherwise() {
        assertThat(VALID.producerConfig()).containsEntry("reconnect.backoff.max.ms", "250");
        assertThat(VALID.withProducerProperties(Map.of("reconnect.backoff.max.ms", "1000")).producerConfig())
                .containsEntry("reconnect.backoff.max.ms", "1000");
    }

    @Test
    void aReferenceTopicThatIsInvalidOrSharedWithAnotherTopicNamesTheKey() {
        assertRefused(() -> VALID.withReferenceTopic("bad topic"), "msgx.kafka.topic.reference");
        assertRefused(() -> VALID.withReferenceTopic(VALID.schdTopic()), "msgx.kafka.topic.reference");
        assertRefused(() -> VALID.withReferenceTopic(VALID.msgTopic()), "msgx.kafka.topic.reference");
    }

    @Test
    void badBootstrapServersNameTheKey() {
        assertRefused(() -> KafkaSinkSettings.defaults(" "), "msgx.kafka.bootstrap-servers");
        assertRefused(() -> KafkaSinkSettings.defaults("broker1"), "msgx.kafka.bootstrap-servers");
        assertRefused(() -> KafkaSinkSettings.defaults("broker1:9092,:9092"), "msgx.kafka.bootstrap-servers");
        assertRefused(() -> KafkaSinkSettings.defaults("broker1:70000"), "msgx.kafka.bootstrap-servers");
    }

    @Test
    void badTopicsNameTheKey() {
        assertRefused(() -> VALID.withTopics("bad topic", "ok"), "msgx.kafka.topic.msg");
        assertRefused(() -> VALID.withTopics("ok", ""), "msgx.kafka.topic.schd");
        assertRefused(() -> VALID.withTopics("same", "same"), "msgx.kafka.topic.schd");
    }

    @Test
    void badTimeoutsNameTheKey() {
        assertRefused(() -> VALID.withTimeouts(Duration.ZERO, Duration.ofSeconds(1), Duration.ofMillis(1)),
                "msgx.kafka.delivery-timeout");
        assertRefused(() -> VALID.withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1)),
                "msgx.kafka.delivery-timeout");
        assertRefused(() -> VALID.withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(-1), Duration.ofSeconds(1)),
                "msgx.kafka.request-timeout");
        assertRefused(() -> VALID.withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(1), null),
                "msgx.kafka.max-block");
        assertRefused(() -> VALID.withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(6)),
                "msgx.kafka.max-block");
        assertRefused(() -> VALID.withLinger(Duration.ofMillis(-1)), "msgx.kafka.linger");
        assertRefused(() -> VALID.withClientId(""), "msgx.kafka.client-id");
    }

    @Test
    void extraPropertiesPassThroughButCannotOverrideTheGuarantees() {
        var tls = VALID.withProducerProperties(Map.of("security.protocol", "SSL", "compression.type", "lz4"));
        assertThat(tls.producerConfig()).containsEntry("security.protocol", "SSL").containsEntry("compression.type", "lz4");
        assertThat(tls.connectionConfig()).containsEntry("security.protocol", "SSL").doesNotContainKey("compression.type");

        assertRefused(() -> VALID.withProducerProperties(Map.of("acks", "1")), "msgx.kafka.producer.acks");
        assertRefused(() -> VALID.withProducerProperties(Map.of("enable.idempotence", "false")),
                "msgx.kafka.producer.enable.idempotence");
    }

    @Test
    void theLargestBatchFollowsTheProducerSizes() {
        assertThat(VALID.largestBatchBytes()).isEqualTo(1024 * 1024);
        assertThat(VALID.withProducerProperties(Map.of("max.request.size", "2000", "batch.size", "65536"))
                .largestBatchBytes()).isEqualTo(65536);
        assertRefused(() -> VALID.withProducerProperties(Map.of("max.request.size", "1MB")),
                "msgx.kafka.producer.max.request.size");
    }

    @Test
    void toStringHidesPropertyValues() {
        var sasl = VALID.withProducerProperties(Map.of("sasl.jaas.config", "password=\"s3cret\""));
        assertThat(sasl.toString()).contains("sasl.jaas.config").doesNotContain("s3cret");
    }

    private static void assertRefused(Runnable construction, String key) {
        assertThatThrownBy(construction::run).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(key);
    }
}
