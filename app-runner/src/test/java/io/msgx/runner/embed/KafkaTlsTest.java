package io.msgx.runner.embed;

import io.msgx.adapter.kafka.KafkaClusterProbe;
import io.msgx.adapter.kafka.KafkaEventSink;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.kafka.TestCertificates;
import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.OutgoingEvent.EventStream;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.OutgoingEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kafka sink over TLS with the settings of docs/tls.md, given as the runner reads them
 * ({@code msgx.kafka.producer.security.protocol=SSL} and the trust store), against a real in-process broker with a TLS
 * listener whose key and certificate are made at test time with the JDK's keytool ({@link TestCertificates}); needs
 * nothing from scripts/start-services.sh. A client that does not trust the broker's CA is refused.
 */
class KafkaTlsTest {

    @TempDir
    static Path folder;

    private static TestCertificates certificates;
    private static KafkaTestBroker.TlsBroker broker;

    @BeforeAll
    static void startBroker() {
        certificates = TestCertificates.make(folder.resolve("kafka-ca"), "msgx test Kafka CA");
        broker = KafkaTestBroker.startTls(certificates);
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    /** The runner's configuration publishing to {@code topics} at the TLS listener with {@code tls} settings. */
    private static RunnerConfig config(Map<String, String> tls, String msg, String schd, String reference) {
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_URL, "jdbc:postgresql://localhost:5432/unused");
        keys.put(Keys.MAILBOX_URL, "jdbc:mysql://localhost:3306/unused");
        keys.put(Keys.KAFKA_BOOTSTRAP, broker.sslBootstrapServers());
        keys.put(Keys.KAFKA_TOPIC_MSG, msg);
        keys.put(Keys.KAFKA_TOPIC_SCHD, schd);
        keys.put(Keys.KAFKA_TOPIC_REFERENCE, reference);
        keys.put(Keys.KAFKA_REQUEST_TIMEOUT, "3s");
        keys.put(Keys.KAFKA_MAX_BLOCK, "3s");
        keys.put(Keys.KAFKA_DELIVERY_TIMEOUT, "5s");
        keys.putAll(tls);
        return RunnerConfig.from(ConfigSource.of(Map.copyOf(keys)));
    }

    /** docs/tls.md, Kafka: TLS, the CA as a PKCS#12 trust store, the broker's host name checked (the default). */
    private static Map<String, String> trustStoreSettings() {
        return Map.of("msgx.kafka.producer.security.protocol", "SSL",
                "msgx.kafka.producer.ssl.truststore.type", "PKCS12",
                "msgx.kafka.producer.ssl.truststore.location", certificates.trustStore().toString(),
                "msgx.kafka.producer.ssl.truststore.password", certificates.password(),
                "msgx.kafka.producer.ssl.endpoint.identification.algorithm", "https");
    }

    private static String[] topics(String prefix) {
        var msg = KafkaTestBroker.uniqueTopic(prefix + "-msg");
        var schd = KafkaTestBroker.uniqueTopic(prefix + "-schd");
        var reference = KafkaTestBroker.uniqueTopic(prefix + "-reference");
        broker.createTopics(msg, schd, reference);
        return new String[] {msg, schd, reference};
    }

    /** What a consumer of the topics needs: the same connection settings, read from the sink's configuration. */
    private static Map<String, Object> consumerOf(RunnerConfig config) {
        return new HashMap<>(config.kafka().sink().connectionConfig());
    }

    @Test
    void the_sink_publishes_over_tls_with_the_trust_store_settings() {
        var t = topics("tls");
        var config = config(trustStoreSettings(), t[0], t[1], t[2]);
        var value = "{\"flid\":\"1001\",\"stateVersion\":1}";

        assertThat(new KafkaClusterProbe(config.kafka().sink()).problem(Duration.ofSeconds(10)))
                .as("the readiness probe reaches the broker over TLS").isEmpty();
        try (var sink = new KafkaEventSink(config.kafka().sink())) {
            assertThat(sink.send(List.of(event(EventStream.MSG, "1001", value)))).containsExactly(DeliveryOutcome.delivered());
        }

        assertThat(broker.readValues(t[0], 1, consumerOf(config))).containsExactly(value);
    }

    @Test
    void the_sink_publishes_over_tls_with_the_ca_as_a_pem_file() throws Exception {
        var t = topics("tls-pem");
        var pem = Map.of("msgx.kafka.producer.security.protocol", "SSL",
                "msgx.kafka.producer.ssl.truststore.type", "PEM",
                "msgx.kafka.producer.ssl.truststore.location", certificates.caPem().toString());
        var config = config(pem, t[0], t[1], t[2]);
        assertThat(Files.readString(certificates.caPem())).startsWith("-----BEGIN CERTIFICATE-----");

        try (var sink = new KafkaEventSink(config.kafka().sink())) {
            assertThat(sink.send(List.of(event(EventStream.MSG, "1002", "{\"flid\":\"1002\"}"))))
                    .containsExactly(DeliveryOutcome.delivered());
        }

        assertThat(broker.readValues(t[0], 1, consumerOf(config))).containsExactly("{\"flid\":\"1002\"}");
    }

    @Test
    void a_client_that_does_not_trust_the_brokers_ca_is_refused_with_a_clear_error() {
        var t = topics("tls-refused");
        // TLS on, but no trust store: the JDK's default CAs, which never signed the broker's certificate
        var config = config(Map.of("msgx.kafka.producer.security.protocol", "SSL"), t[0], t[1], t[2]);

        assertThat(new KafkaClusterProbe(config.kafka().sink()).problem(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("SslAuthenticationException")
                        .contains("SSL handshake failed"));

        // the same for a CA that is not the broker's
        var other = TestCertificates.make(folder.resolve("other-ca"), "another CA");
        var wrong = new HashMap<>(trustStoreSettings());
        wrong.put("msgx.kafka.producer.ssl.truststore.location", other.trustStore().toString());
        assertThat(new KafkaClusterProbe(config(wrong, t[0], t[1], t[2]).kafka().sink()).problem(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("SSL handshake failed"));
    }

    @Test
    void a_plain_text_client_gets_no_answer_from_the_tls_listener() {
        var t = topics("tls-plain");
        var config = config(Map.of(), t[0], t[1], t[2]);

        assertThat(new KafkaClusterProbe(config.kafka().sink()).problem(Duration.ofSeconds(3))).isPresent();
    }
}
