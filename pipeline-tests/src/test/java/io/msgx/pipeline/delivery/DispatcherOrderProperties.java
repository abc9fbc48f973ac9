package io.msgx.pipeline.delivery;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.testing.SettableClock;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever the sink refuses and whenever the runs come, nothing is lost and the last copy of every delivered
 * notification of a FLID comes in {@code EVENT_ID} order (D-22, D-35) — with runs resuming where earlier runs settled
 * (D-47), retries falling due below that mark, and held-back notifications released by their head.
 */
class DispatcherOrderProperties {

    private static final List<String> FLIDS = List.of("A", "B", "C");

    /** One step of a history: commit a notification or a projection, run the dispatcher, let time pass, or change what the sink refuses. */
    record Step(Kind kind, int flid, int amount) {
        enum Kind { NOTIFY, PROJECT, RUN_BACKLOG, RUN_ONCE, TICK, REFUSE }
    }

    @Property(tries = 300)
    void nothingIsLostAndTheLastCopiesOfEachFlidComeInOrder(@ForAll("histories") List<Step> history) {
        var store = H2TestStore.fresh();
        var clock = SettableClock.atExampleDay();
        var sink = new ScriptedSink();
        var retry = new RetryPolicy(RetryPolicy.DELIVERY, 3, List.of(Duration.ofSeconds(1), Duration.ofSeconds(10)));
        var dispatcher = new Dispatcher(store, sink, new DispatchSettings(3, 2, retry), clock, new PipelineMetrics() {
        });
        var versions = new HashMap<String, Long>();

        for (var step : history) {
            var flid = FLIDS.get(step.flid());
            switch (step.kind()) {
                case NOTIFY -> {
                    long version = versions.merge(flid, 1L, Long::sum);
                    store.inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG,
                            FlightId.of(flid), OutboxEvent.EventType.UPSERT, version, 1,
                            "{\"flid\":\"" + flid + "\",\"stateVersion\":" + version + "}", clock.instant())));
                }
                case PROJECT -> {
                    long version = versions.merge(flid, 1L, Long::sum);
                    store.inTransaction(tx -> tx.projections().upsertProjection(new OutboxEvent(OutboxTarget.KAFKA_SCHD,
                            FlightId.of(flid), OutboxEvent.EventType.UPSERT, version, 1,
                            "{\"stateVersion\":" + version + "}", clock.instant())));
                }
                case RUN_BACKLOG -> dispatcher.dispatchBacklog();
                case RUN_ONCE -> dispatcher.dispatchOnce();
                case TICK -> clock.tick(Duration.ofSeconds(step.amount()));
                case REFUSE -> {
                    int salt = step.amount();
                    sink.failWhen(salt == 0 ? event -> false
                            : event -> Math.floorMod((event.value() + salt).hashCode(), 3) == 0);
                }
            }
        }
        sink.failWhen(event -> false);
        for (int i = 0; i < 5; i++) {
            clock.tick(Dispatcher.FULL_SCAN_PERIOD.plusSeconds(1));
            while (!dispatcher.dispatchBacklog().idle()) {
                // drain
            }
        }

        var rows = store.allEvents();
        assertThat(rows).as("every event ends SENT or DEAD").noneMatch(row -> row.status() == OutboxEntry.DeliveryStatus.PENDING);
        for (var flid : FLIDS) {
            var sentVersions = rows.stream()
                    .filter(row -> row.event().target() == OutboxTarget.KAFKA_MSG)
                    .filter(row -> row.event().partitionKey().value().equals(flid))
                    .filter(row -> row.status() == OutboxEntry.DeliveryStatus.SENT)
                    .map(row -> row.event().stateVersion())
                    .toList();
            var lastCopies = lastCopiesInArrivalOrder(sink.delivered.stream()
                    .filter(event -> event.stream() == OutgoingEvent.EventStream.MSG && event.key().equals(flid))
                    .map(event -> stateVersion(event.value()))
                    .filter(sentVersions::contains)
                    .toList());
            assertThat(lastCopies).as("FLID %s: every SENT notification delivered, last copies in order", flid)
                    .isEqualTo(sentVersions.stream().sorted().toList());
            rows.stream()
                    .filter(row -> row.event().target() == OutboxTarget.KAFKA_SCHD)
                    .filter(row -> row.event().partitionKey().value().equals(flid))
                    .filter(row -> row.status() == OutboxEntry.DeliveryStatus.SENT)
                    .forEach(projection -> assertThat(sink.delivered.stream()
                            .filter(event -> event.stream() == OutgoingEvent.EventStream.SCHD && event.key().equals(flid))
                            .reduce((first, second) -> second).map(event -> stateVersion(event.value())))
                            .as("FLID %s: the last state delivered is the projection's", flid)
                            .contains(projection.event().stateVersion()));
        }
    }

    /** The versions in the order of their last arrival. */
    private static List<Long> lastCopiesInArrivalOrder(List<Long> arrivals) {
        var last = new LinkedHashMap<Long, Integer>();
        for (int i = 0; i < arrivals.size(); i++) {
            last.remove(arrivals.get(i));
            last.put(arrivals.get(i), i);
        }
        return new ArrayList<>(last.keySet());
    }

    private static long stateVersion(String json) {
        return Long.parseLong(json.replaceAll(".*\"stateVersion\":(\\d+).*", "$1"));
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Step> step = Combinators.combine(
                Arbitraries.frequencyOf(
                        Tuple.of(6, Arbitraries.just(Step.Kind.NOTIFY)),
                        Tuple.of(2, Arbitraries.just(Step.Kind.PROJECT)),
                        Tuple.of(3, Arbitraries.just(Step.Kind.RUN_BACKLOG)),
                        Tuple.of(2, Arbitraries.just(Step.Kind.RUN_ONCE)),
                        Tuple.of(2, Arbitraries.just(Step.Kind.TICK)),
                        Tuple.of(1, Arbitraries.just(Step.Kind.REFUSE))),
                Arbitraries.integers().between(0, FLIDS.size() - 1),
                Arbitraries.integers().between(0, 70)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(60);
    }
}
