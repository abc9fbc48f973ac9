package io.msgx.adapter.kafka;

import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.delivery.OutgoingEvent.EventStream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.msgx.pipeline.testing.OutgoingEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

/** Without a broker the sink still answers every record, within its bound, and never throws. */
class KafkaEventSinkUnreachableTest {

    private static final KafkaSinkSettings CLOSED_PORT = KafkaSinkSettings.defaults("127.0.0.1:1")
            .withClientId("unreachable-test")
            .withTimeouts(Duration.ofMillis(1500), Duration.ofMillis(500), Duration.ofMillis(500));

    /** Scheduling slack on a busy machine; the bound itself is what is checked. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    private static List<OutgoingEvent> batch(int size) {
        var events = new ArrayList<OutgoingEvent>();
        for (int i = 0; i < size; i++) {
            var key = Integer.toString(100 + i % 7);
            events.add(i % 2 == 0
                    ? event(EventStream.MSG, key, "{\"i\":" + i + "}")
                    : event(EventStream.SCHD, key, i % 3 == 0 ? null : "{\"i\":" + i + "}"));
        }
        return events;
    }

    @Test
    void aClosedPortFailsEveryRecordWithinTheBound() {
        var events = batch(50);
        List<DeliveryOutcome> results;
        long started = System.nanoTime();
        try (var sink = new KafkaEventSink(CLOSED_PORT)) {
            results = sink.send(events);
        }
        var elapsed = Duration.ofNanos(System.nanoTime() - started);

        assertThat(results).hasSize(events.size()).allSatisfy(result -> assertThat(result)
                .isInstanceOfSatisfying(DeliveryOutcome.Failed.class, failed -> {
                    assertThat(failed.reason()).isNotBlank();
                    assertThat(failed.outage()).as("no broker: an outage, which uses no attempt (D-66)").isTrue();
                }));
        assertThat(elapsed).isLessThan(CLOSED_PORT.sendBound().plus(SLACK));
    }

    @Test
    void anInterruptedCallerGetsAResultPerRecordAndKeepsItsInterrupt() {
        var events = batch(5);
        try (var sink = new KafkaEventSink(CLOSED_PORT)) {
            Thread.currentThread().interrupt();
            var results = sink.send(events);

            assertThat(Thread.interrupted()).isTrue();
            assertThat(results).hasSize(5).allMatch(result -> result instanceof DeliveryOutcome.Failed failed
                    && failed.outage());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aClosedSinkFailsEveryRecordInsteadOfThrowing() {
        var sink = new KafkaEventSink(CLOSED_PORT);
        sink.close();

        var results = sink.send(batch(3));

        assertThat(results).hasSize(3).allSatisfy(result -> assertThat(result)
                .isInstanceOfSatisfying(DeliveryOutcome.Failed.class,
                        failed -> {
                            assertThat(failed.reason()).contains("closed");
                            assertThat(failed.outage()).as("the sink, not the record").isTrue();
                        }));
    }

    @Test
    void anEmptyBatchAnswersAnEmptyList() {
        try (var sink = new KafkaEventSink(CLOSED_PORT)) {
            assertThat(sink.send(List.of())).isEmpty();
        }
    }
}
