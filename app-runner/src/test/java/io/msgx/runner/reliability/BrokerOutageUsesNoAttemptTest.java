package io.msgx.runner.reliability;

import io.msgx.adapter.kafka.KafkaEventSink;
import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.delivery.DispatchSettings;
import io.msgx.pipeline.delivery.Dispatcher;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.runner.config.Keys;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.msgx.runner.reliability.ProxiedPipeline.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker outage uses no delivery attempt (issue 23, D-66), on the real services: the Kafka broker is really stopped
 * for much longer than the whole delivery retry budget (3 attempts, 100 ms apart: before D-66 every pending event was
 * {@code DEAD} after about 3 s), while the AODB side keeps writing for 20 flights and the pipeline keeps processing;
 * once the broker is back every event is delivered, none is {@code DEAD} nor has used an attempt, and each flight's
 * notifications are on the topic in {@code stateVersion} order ({@link AodbTraffic#assertKafkaMatches}). And the
 * other side of the rule: a record the producer refuses (larger than {@code max.request.size}) still uses its
 * attempts and ends {@code DEAD}, while the rest of the outbox is delivered.
 */
@Slow
class BrokerOutageUsesNoAttemptTest {

    private static final int FLIGHTS = 20;
    private static final Duration FEED_EVERY = Duration.ofMillis(10);
    /** Three times what the retry budget lasted against a stopped broker before D-66. */
    private static final Duration OUTAGE = Duration.ofSeconds(10);

    @RegisterExtension
    final ProxiedPipeline pipeline = new ProxiedPipeline();

    @Test
    void the_broker_stopped_longer_than_the_retry_budget_parks_nothing_and_every_event_arrives_in_order()
            throws Exception {
        pipeline.start(Map.of(Keys.DISPATCH_MAX_ATTEMPTS, "3", Keys.DISPATCH_BACKOFF, "100ms,100ms",
                Keys.KAFKA_DELIVERY_TIMEOUT, "2s", Keys.KAFKA_REQUEST_TIMEOUT, "1s", Keys.KAFKA_MAX_BLOCK, "1s",
                Keys.KAFKA_LINGER, "5ms"));
        var traffic = AodbTraffic.start(pipeline.aodbSide(), FLIGHTS, FEED_EVERY);
        await("the pipeline processes the AODB traffic", Duration.ofSeconds(30), () -> pipeline.ended() >= 30);
        await("events are delivered", Duration.ofSeconds(30), () -> pipeline.sentEvents() > 0);

        long endedWhenDown;
        long pendingDuringOutage;
        long attemptsDuringOutage;
        try {
            KafkaTestBroker.stopBroker();
            endedWhenDown = pipeline.ended();
            Thread.sleep(OUTAGE.toMillis());
            pendingDuringOutage = pipeline.count("select count(*) from msg_event where status = 'PENDING'");
            attemptsDuringOutage = pipeline.count("select count(*) from msg_event where attempts > 0 or status = 'DEAD'");
            assertThat(pipeline.ended()).as("processing goes on while the broker is away").isGreaterThan(endedWhenDown);
        } finally {
            KafkaTestBroker.startBroker();
        }
        assertThat(pendingDuringOutage).as("events waited for the broker").isPositive();
        assertThat(attemptsDuringOutage).as("the outage used no attempt of any event, none is DEAD").isZero();

        Thread.sleep(500);
        traffic.stop();
        long fed = traffic.fed();
        await("all " + fed + " messages processed", Duration.ofSeconds(90), () -> pipeline.ended() == fed);
        await("every event delivered", Duration.ofSeconds(90),
                () -> pipeline.count("select count(*) from msg_event where status <> 'SENT'") == 0);
        assertThat(pipeline.count("select count(*) from msg_event where status = 'DEAD' or attempts > 0"))
                .as("after an outage three times the retry budget: nothing DEAD, no attempt used").isZero();
        traffic.assertStoreMatches(pipeline);
        traffic.assertKafkaMatches(pipeline);
    }

    @Test
    void a_record_larger_than_max_request_size_still_uses_its_attempts_and_ends_dead() {
        var msg = KafkaTestBroker.uniqueTopic("msg-dead-letter");
        var schd = KafkaTestBroker.uniqueTopic("schd-dead-letter");
        KafkaTestBroker.createTopics(1, msg);
        KafkaTestBroker.createCompactedTopics(1, schd);
        var settings = KafkaSinkSettings.defaults(KafkaTestBroker.bootstrapServers()).withClientId("dead-letter-test")
                .withTopics(msg, schd).withProducerProperties(Map.of("max.request.size", "20000"));
        var store = H2TestStore.fresh();
        var retry = new RetryPolicy(RetryPolicy.DELIVERY, 3, List.of(Duration.ZERO, Duration.ZERO));
        long small = notify(store, "1", 1, "{\"n\":1}");
        long large = notify(store, "2", 1, "{\"pad\":\"" + "x".repeat(30_000) + "\"}");
        try (var sink = new KafkaEventSink(settings)) {
            var dispatcher = new Dispatcher(store, sink, new DispatchSettings(500, 500, retry), Clock.systemUTC(),
                    PipelineMetrics.NONE);
            for (int run = 0; run < retry.maxAttempts(); run++) {
                var result = dispatcher.dispatchOnce();
                assertThat(result.outage()).as("a refusal of one record is not an outage").isFalse();
            }
        }

        var rows = store.allEvents();
        assertThat(rows).filteredOn(row -> row.eventId() == small).singleElement()
                .extracting(OutboxEntry::status).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
        assertThat(rows).filteredOn(row -> row.eventId() == large).singleElement().satisfies(row -> {
            assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.DEAD);
            assertThat(row.attempts()).isEqualTo(retry.maxAttempts());
            assertThat(row.lastError()).startsWith("RecordTooLargeException");
        });
        assertThat(store.deadLetters().deadEvents(10)).singleElement().satisfies(dead -> {
            assertThat(dead.eventId()).isEqualTo(large);
            assertThat(dead.key()).isEqualTo("2");
        });
        assertThat(KafkaTestBroker.readAll(msg)).extracting(KafkaTestBroker.ReadRecord::key).containsExactly("1");
    }

    private static long notify(H2TestStore store, String flid, long version, String payload) {
        return store.inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of(flid),
                OutboxEvent.EventType.UPSERT, version, 1, payload, java.time.Instant.now())));
    }
}
