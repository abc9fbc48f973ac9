package io.msgx.pipeline.delivery;

import java.util.List;

/**
 * Where events go (Kafka, in production). The sink only sends and reports; it never marks anything: the
 * dispatcher confirms in the outbox what the sink reports delivered.
 */
public interface EventSink {

    /**
     * Send every event and wait, within a bounded time, for each one's acknowledgement. Returns one result
     * per event, in the same order. A failure of one event is a result, never an exception; nothing may block
     * beyond the sink's configured delivery timeout.
     */
    List<Delivery> send(List<OutgoingEvent> events);
}
