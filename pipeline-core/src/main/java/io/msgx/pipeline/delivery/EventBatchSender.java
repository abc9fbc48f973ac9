package io.msgx.pipeline.delivery;

import io.msgx.pipeline.port.EventSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Hands a round's records to the event sink as one batch and answers one {@link DeliveryOutcome} per record, in their order.
 * A sink that fails as a whole (it throws, or answers a different number of results) is not the events' fault: every
 * record of the batch is then answered {@link DeliveryOutcome#unreachable unreachable}, an outage that uses no attempt (D-66).
 */
final class EventBatchSender {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final EventSink sink;

    EventBatchSender(EventSink sink) {
        this.sink = sink;
    }

    List<DeliveryOutcome> send(List<OutgoingEvent> events) {
        try {
            var results = sink.send(events);
            if (results.size() != events.size()) {
                throw new IllegalStateException("the sink answered " + results.size() + " results for " + events.size()
                        + " events");
            }
            return results;
        } catch (RuntimeException e) {
            log.warn("Event sink failed as a whole; every event of the round is retried: {}", e.toString());
            DeliveryOutcome failure = DeliveryOutcome.unreachable("sink failure: " + e); // not the events' fault: no attempt used
            return events.stream().map(event -> failure).toList();
        }
    }
}
