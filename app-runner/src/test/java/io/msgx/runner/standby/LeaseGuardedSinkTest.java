package io.msgx.runner.standby;

import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.delivery.OutgoingEvent.EventStream;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.msgx.pipeline.testing.OutgoingEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance that woke up past its lease with a round in hand sends nothing of it (D-108): the round may be older
 * than what the instance that took over has sent since, and on a compacted topic the older value would win.
 */
class LeaseGuardedSinkTest {

    private final List<OutgoingEvent> sent = new ArrayList<>();
    private final AtomicBoolean held = new AtomicBoolean(true);
    private final LeaseGuardedSink sink = new LeaseGuardedSink(events -> {
        sent.addAll(events);
        return events.stream().map(event -> DeliveryOutcome.delivered()).toList();
    }, held::get);

    private final List<OutgoingEvent> round = List.of(event(EventStream.MSG, "4711", "{\"v\":5}"),
            event(EventStream.SCHD, "4711", "{\"v\":5}"));

    @Test
    void aRoundIsHandedOverWhileTheLeaseIsHeld() {
        assertThat(sink.send(round)).containsOnly(DeliveryOutcome.delivered());
        assertThat(sent).isEqualTo(round);
    }

    @Test
    void aRoundInHandWhenTheLeaseRanOutIsNotSentAndUsesNoAttempt() {
        held.set(false);

        var results = sink.send(round);

        assertThat(sent).as("nothing reached the broker").isEmpty();
        assertThat(results).hasSize(2).allSatisfy(result -> assertThat(result)
                .isEqualTo(DeliveryOutcome.unreachable(LeaseGuardedSink.NOT_SENT)))
                .as("an outage's result: no attempt of the events is used").allMatch(result ->
                        ((DeliveryOutcome.Failed) result).outage());
    }
}
