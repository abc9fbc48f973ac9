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
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker outage uses no delivery attempt (D-66): the sink fails every event as an outage for many more runs than
 * the retry budget allows, and every event is still delivered, in order, once the broker is back; a refusal of one
 * record still counts and ends {@code DEAD}.
 */
class DispatcherOutageTest {

    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final OutboxRows outbox = new OutboxRows(store, clock);
    private final ScriptedSink sink = new ScriptedSink();
    private final List<Duration> commitToAck = new ArrayList<>();
    private final RetryPolicy retry = new RetryPolicy(RetryPolicy.DELIVERY, 3,
            List.of(Duration.ofSeconds(1), Duration.ofSeconds(10)));
    private final Dispatcher dispatcher = new Dispatcher(store, sink, new DispatchSettings(500, 500, retry), clock,
            new PipelineMetrics() {
                @Override
                public void committedToAcknowledged(Duration sinceCommit) {
                    commitToAck.add(sinceCommit);
                }
            });

    @Test
    void an_outage_longer_than_the_retry_budget_parks_nothing_and_everything_goes_out_in_order_afterwards() {
        outbox.notify("A", 1);
        outbox.notify("B", 1);
        outbox.notify("A", 2);
        outbox.project("A", 2);
        reference("G17");
        sink.failAsOutage(true);
        sink.failWhen(event -> true);

        int runs = 0;
        for (int i = 0; i < 4 * retry.maxAttempts(); i++) {
            var result = dispatcher.dispatchBacklog();
            assertThat(result.outage()).isTrue();
            assertThat(result.failed() + result.dead()).as("an outage is neither a failure nor a death").isZero();
            assertThat(result.brokerAway()).isLessThanOrEqualTo(BrokerOutage.MAX_OUTAGE_BACKOFF);
            clock.tick(result.brokerAway());
            runs++;
        }
        assertThat(sink.batches).as("every run after its backoff asked the broker again").hasSize(runs);
        var outage = BrokerOutage.MAX_OUTAGE_BACKOFF.multipliedBy(runs);
        assertThat(store.allEvents()).allSatisfy(row -> {
            assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
            assertThat(row.attempts()).isZero();
            assertThat(row.nextAttemptAt()).isNull();
            assertThat(row.lastError()).isNull();
        });
        assertThat(store.allReferenceEvents()).allSatisfy(row -> assertThat(row.attempts()).isZero());

        sink.failWhen(event -> false);
        var back = dispatcher.dispatchBacklog();

        assertThat(back.outage()).isFalse();
        assertThat(back.delivered()).isEqualTo(5);
        assertThat(store.allEvents()).extracting(OutboxEntry::status).containsOnly(OutboxEntry.DeliveryStatus.SENT);
        assertThat(store.allReferenceEvents()).extracting(e -> e.status())
                .containsOnly(OutboxEntry.DeliveryStatus.SENT);
        assertThat(sink.deliveredValuesOf("A")).containsExactly("{\"eventId\":1,\"flid\":\"A\",\"stateVersion\":1}",
                "{\"eventId\":3,\"flid\":\"A\",\"stateVersion\":2}", "{\"v\":2}");
        assertThat(commitToAck).as("every acknowledged event timed from its commit, the outage included")
                .hasSize(5).allSatisfy(waited -> assertThat(waited).isGreaterThanOrEqualTo(outage));
    }

    @Test
    void while_the_backoff_runs_a_run_sends_nothing_and_says_how_long_is_left() {
        outbox.notify("A", 1);
        sink.failAsOutage(true);
        sink.failWhen(event -> true);
        var first = dispatcher.dispatchOnce();
        assertThat(first.brokerAway()).isEqualTo(BrokerOutage.MAX_OUTAGE_BACKOFF);

        clock.tick(Duration.ofMillis(100));
        var early = dispatcher.dispatchOnce();

        assertThat(sink.batches).as("nothing sent before the backoff passed").hasSize(1);
        assertThat(early.outage()).isTrue();
        assertThat(early.idle()).isFalse();
        assertThat(early.brokerAway()).isEqualTo(BrokerOutage.MAX_OUTAGE_BACKOFF.minusMillis(100));
    }

    @Test
    void the_pause_between_tries_is_the_first_retry_tier_and_never_long() {
        assertThat(BrokerOutage.outageBackoff(List.of(Duration.ofMillis(100), Duration.ofMillis(100))))
                .isEqualTo(Duration.ofMillis(100));
        assertThat(BrokerOutage.outageBackoff(RetryPolicy.deliveryDefaults().backoff()))
                .as("not the 1 s of the first tier: the broker's return is noticed at once")
                .isEqualTo(BrokerOutage.MAX_OUTAGE_BACKOFF);
        assertThat(BrokerOutage.outageBackoff(List.of())).isEqualTo(BrokerOutage.MAX_OUTAGE_BACKOFF);
        assertThat(BrokerOutage.outageBackoff(List.of(Duration.ZERO))).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void acknowledged_events_before_the_outage_are_confirmed_and_the_rest_wait_without_an_attempt() {
        long a1 = outbox.notify("A", 1);
        long a2 = outbox.notify("A", 2);
        long a3 = outbox.notify("A", 3);
        long b1 = outbox.notify("B", 1);
        sink.failAsOutage(true);
        sink.failWhen(event -> event.value().contains("\"flid\":\"A\",\"stateVersion\":2"));

        var result = dispatcher.dispatchOnce();

        assertThat(result.outage()).isTrue();
        assertThat(result.delivered()).isEqualTo(2);
        assertThat(outbox.row(a1).status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
        assertThat(outbox.row(b1).status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
        assertThat(List.of(outbox.row(a2), outbox.row(a3))).allSatisfy(row -> {
            assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
            assertThat(row.attempts()).isZero();
        });

        sink.failWhen(event -> false);
        clock.tick(result.brokerAway());
        dispatcher.dispatchOnce();

        assertThat(sink.deliveredValuesOf("A")).as("A2 and A3 again after A1, as the outage left them")
                .map(value -> value.replaceAll(".*\"stateVersion\":(\\d+).*", "$1"))
                .containsExactly("1", "3", "2", "3");
        assertThat(outbox.row(a3).status()).isEqualTo(OutboxEntry.DeliveryStatus.SENT);
    }

    @Test
    void a_refused_record_still_uses_its_attempts_and_ends_dead_while_an_outage_never_does() {
        long a1 = outbox.notify("A", 1);
        long b1 = outbox.notify("B", 1);
        sink.failWhen(event -> true);
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            sink.failAsOutage(true);
            var away = dispatcher.dispatchOnce();
            clock.tick(away.brokerAway());
            sink.failAsOutage(false); // the broker is back, and refuses the records themselves
            var refused = dispatcher.dispatchOnce();
            assertThat(refused.outage()).isFalse();
            clock.tick(Duration.ofMinutes(1));
        }
        assertThat(List.of(outbox.row(a1), outbox.row(b1))).allSatisfy(row -> {
            assertThat(row.status()).isEqualTo(OutboxEntry.DeliveryStatus.DEAD);
            assertThat(row.attempts()).as("only the refusals counted").isEqualTo(retry.maxAttempts());
            assertThat(row.lastError()).contains("refused by the test");
        });
    }

    private void reference(String key) {
        store.inTransaction(tx -> {
            tx.referenceNotifications().upsertReferences(List.of(new ReferenceEvent("GLST", key, OutboxEvent.EventType.UPSERT, 1,
                    "{\"r\":1}", clock.instant())));
            return null;
        });
    }
}
