package io.msgx.pipeline.port;

import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.OutgoingEvent;

import java.util.List;

/**
 * Where events go (Kafka, in production). The sink only sends and reports; it never marks anything: the
 * dispatcher confirms in the outbox what the sink reports delivered.
 */
public interface EventSink {

    /**
     * Send every event and wait, within a bounded time, for each one's acknowledgement. Returns one result
     * per event, in the same order. A failure of one event is a result, never an exception; the call returns
     * within a bound the sink states (for Kafka: max-block + delivery timeout + 1 s), whatever the broker does.
     */
    List<DeliveryOutcome> send(List<OutgoingEvent> events);
}
