package io.msgx.pipeline.delivery;

import io.msgx.pipeline.port.EventSink;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * An event sink for dispatcher tests: remembers every batch, fails the events a test names, and can run
 * something in the middle of a send (a commit landing while events are in flight).
 */
final class ScriptedSink implements EventSink {

    final List<List<OutgoingEvent>> batches = new ArrayList<>();
    final List<OutgoingEvent> delivered = new ArrayList<>();
    private Predicate<OutgoingEvent> failing = event -> false;
    private Runnable duringSend = () -> { };
    private RuntimeException crash;
    private boolean outages;

    /** From now on the failing events fail as an outage (the broker away), not as refusals of the records. */
    void failAsOutage(boolean outage) {
        this.outages = outage;
    }

    void failWhen(Predicate<OutgoingEvent> predicate) {
        this.failing = predicate;
    }

    void duringNextSend(Runnable action) {
        this.duringSend = action;
    }

    void crashWith(RuntimeException exception) {
        this.crash = exception;
    }

    @Override
    public List<DeliveryOutcome> send(List<OutgoingEvent> events) {
        batches.add(List.copyOf(events));
        var action = duringSend;
        duringSend = () -> { };
        action.run();
        if (crash != null) {
            throw crash;
        }
        var results = new ArrayList<DeliveryOutcome>();
        for (var event : events) {
            if (failing.test(event)) {
                results.add(outages ? DeliveryOutcome.unreachable("broker away in the test") : DeliveryOutcome.refused("refused by the test"));
            } else {
                delivered.add(event);
                results.add(DeliveryOutcome.delivered());
            }
        }
        return results;
    }

    List<String> deliveredValuesOf(String key) {
        return delivered.stream().filter(e -> e.key().equals(key)).map(OutgoingEvent::value).toList();
    }
}
