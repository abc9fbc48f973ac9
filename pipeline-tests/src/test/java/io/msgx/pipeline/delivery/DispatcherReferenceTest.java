package io.msgx.pipeline.delivery;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.ReferenceEvent;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's reference round (KAFKA:ref, D-60) over the in-memory outbox. */
class DispatcherReferenceTest {

    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final ScriptedSink sink = new ScriptedSink();
    private final RetryPolicy retry = new RetryPolicy(RetryPolicy.DELIVERY, 3,
            List.of(Duration.ofSeconds(1), Duration.ofSeconds(10)));
    private final Dispatcher dispatcher = new Dispatcher(store, sink, new DispatchSettings(500, 2, retry), clock,
            PipelineMetrics.NONE);

    private void write(ReferenceEvent... events) {
        store.inTransaction(tx -> {
            tx.referenceNotifications().upsertReferences(Arrays.asList(events));
            return null;
        });
    }

    private ReferenceEvent upsert(String key, long msgId) {
        return new ReferenceEvent("GLST", key, OutboxEvent.EventType.UPSERT, msgId, "{\"v\":" + msgId + "}",
                clock.instant());
    }

    private ReferenceEvent tombstone(String key, long msgId) {
        return new ReferenceEvent("GLST", key, OutboxEvent.EventType.TOMBSTONE, msgId, null, clock.instant());
    }

    @Test
    void reference_changes_go_to_the_reference_stream_keyed_by_type_and_key_with_a_tombstone_for_a_removal() {
        write(upsert("G17", 5), tombstone("G18", 5));

        var result = dispatcher.dispatchOnce();

        assertThat(result.delivered()).isEqualTo(2);
        var committedAt = clock.instant();
        assertThat(sink.delivered).containsExactly(
                new OutgoingEvent(OutgoingEvent.EventStream.REF, "GLST:G17", "{\"v\":5}", new EventAttributes(
                        "GLST:G17@5", EventAttributes.REFERENCE_RECORD, "GLST:G17", committedAt, null, 5)),
                new OutgoingEvent(OutgoingEvent.EventStream.REF, "GLST:G18", null, new EventAttributes(
                        "GLST:G18@5", EventAttributes.REFERENCE_RECORD, "GLST:G18", committedAt, null, 5)));
        assertThat(store.allReferenceEvents()).extracting(e -> e.status())
                .containsOnly(OutboxEntry.DeliveryStatus.SENT);
        assertThat(dispatcher.dispatchOnce().idle()).isTrue();
    }

    @Test
    void a_run_keeps_going_while_its_reference_rounds_come_full() {
        write(upsert("G1", 1), upsert("G2", 1), upsert("G3", 1));

        assertThat(dispatcher.dispatchBacklog().delivered()).as("flush-limit 2: two, then the third next run")
                .isEqualTo(2);
        assertThat(dispatcher.dispatchBacklog().delivered()).isEqualTo(1);
        assertThat(sink.delivered).extracting(OutgoingEvent::key).containsExactly("GLST:G1", "GLST:G2", "GLST:G3");
    }

    @Test
    void a_change_written_while_the_older_one_is_sent_goes_out_after_it() {
        write(upsert("G17", 5));
        sink.duringNextSend(() -> write(tombstone("G17", 6)));

        var first = dispatcher.dispatchOnce();
        assertThat(first.superseded()).isEqualTo(1);
        dispatcher.dispatchOnce();

        assertThat(sink.deliveredValuesOf("GLST:G17")).containsExactly("{\"v\":5}", null);
        assertThat(store.allReferenceEvents()).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
            assertThat(e.event().eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
        });
    }

    @Test
    void a_refused_reference_waits_for_its_retry_and_is_parked_dead_after_the_last_attempt() {
        write(upsert("G17", 5));
        sink.failWhen(event -> true);

        assertThat(dispatcher.dispatchOnce().failed()).isEqualTo(1);
        assertThat(dispatcher.dispatchOnce().idle()).as("not due before its backoff").isTrue();
        clock.tick(Duration.ofSeconds(1));
        assertThat(dispatcher.dispatchOnce().failed()).isEqualTo(1);
        clock.tick(Duration.ofSeconds(10));
        assertThat(dispatcher.dispatchOnce().dead()).isEqualTo(1);

        assertThat(store.allReferenceEvents()).singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo(OutboxEntry.DeliveryStatus.DEAD));
        sink.failWhen(event -> false);
        write(upsert("G17", 6));
        assertThat(dispatcher.dispatchOnce().delivered()).as("a newer change starts afresh").isEqualTo(1);
    }
}
