package io.msgx.runner.standby;

import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.port.EventSink;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The active instance's event sink (D-108): it hands a round to the broker only while the instance holds the leader
 * lease by its own clock. An instance frozen between reading a round from the outbox and sending it (a long pause, a
 * paused VM) wakes up past its lease, and its round, by then perhaps older than what the instance that took over
 * sent, is not sent: every event of it is reported unreachable, which uses none of its attempts, and the instance
 * stops at its next look at the lease. Its store writes are fenced by the lease itself.
 *
 * <p>What this cannot stop: records the producer already held in memory when the JVM froze are written by its own
 * thread when it thaws (see docs/reliability.md, "Freeze").
 */
public record LeaseGuardedSink(EventSink sink, BooleanSupplier heldByOwnClock) implements EventSink {

    public static final String NOT_SENT = "not sent: this instance's leader lease ran out before the round was handed over";

    public LeaseGuardedSink {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(heldByOwnClock, "heldByOwnClock");
    }

    @Override
    public List<DeliveryOutcome> send(List<OutgoingEvent> events) {
        if (!heldByOwnClock.getAsBoolean()) {
            return Collections.nCopies(events.size(), DeliveryOutcome.unreachable(NOT_SENT));
        }
        return sink.send(events);
    }
}
