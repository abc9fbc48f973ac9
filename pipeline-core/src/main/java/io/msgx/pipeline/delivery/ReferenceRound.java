package io.msgx.pipeline.delivery;

import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;

/**
 * The reference-data round ({@code KAFKA:ref}, D-60) that ends every dispatch run: up to {@code flush-limit} due rows
 * in {@code EVENT_ID} order, sent, then confirmed by {@code EVENT_ID} while still {@code PENDING}, the failures
 * recorded as for projections. The outbox holds one row per {@code RTYPE:RKEY} with its latest change, so a key never
 * has two records in flight; a row replaced while its older change was being sent keeps its new {@code EVENT_ID}
 * pending and goes out in the next run (counted as superseded).
 */
final class ReferenceRound {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /**
     * A reference round's figures, whether it claimed as many rows as it may (more may be waiting), whether the sink
     * was asked and the broker answered, and the reason of the broker's outage if it met one (null otherwise).
     */
    record Outcome(Confirmed confirmed, boolean full, boolean answered, String outage) {
    }

    private final PipelineStore store;
    private final EventBatchSender sender;
    private final RoundConfirmation confirmation;
    private final DispatchSettings settings;
    private final Clock clock;
    private final PipelineMetrics metrics;

    ReferenceRound(PipelineStore store, EventBatchSender sender, RoundConfirmation confirmation,
                   DispatchSettings settings, Clock clock, PipelineMetrics metrics) {
        this.store = store;
        this.sender = sender;
        this.confirmation = confirmation;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * One round of {@code KAFKA:ref} rows (D-60): claim the due ones, send them, confirm the acknowledged ones by
     * {@code EVENT_ID} and record the failures, as for projections.
     */
    Outcome dispatch() {
        var claimed = store.referenceNotifications().dueReferences(clock.instant(), settings.flushLimit());
        if (claimed.isEmpty()) {
            return new Outcome(Confirmed.NOTHING, false, false, null);
        }
        var events = claimed.stream().map(OutgoingEvents::of).toList();
        var results = sender.send(events);
        var now = clock.instant();
        var sent = new ArrayList<Long>();
        int failed = 0;
        int dead = 0;
        for (int i = 0; i < claimed.size(); i++) {
            var entry = claimed.get(i);
            if (results.get(i) instanceof DeliveryOutcome.Failed failure) {
                if (failure.outage()) {
                    continue; // the broker is away (D-66): the row stays as it was, no attempt used
                }
                int attempts = entry.attempts() + 1;
                boolean exhausted = confirmation.recordFailure("reference event", entry.eventId(), attempts, failure,
                        now);
                failed++;
                if (exhausted) {
                    dead++;
                    log.error("Event {} (KAFKA:ref {}) DEAD after {} delivery attempts: {}", entry.eventId(),
                            entry.event().partitionKey(), attempts, failure.reason());
                }
            } else {
                sent.add(entry.eventId());
                metrics.committedToAcknowledged(Duration.between(entry.event().createdAt(), now));
            }
        }
        int confirmed = sent.isEmpty() ? 0
                : RoundConfirmation.untilNoConflict("confirming " + sent.size() + " reference event(s)",
                        () -> store.referenceNotifications().markReferencesSent(sent, now));
        metrics.eventsDelivered(confirmed);
        if (failed > 0) {
            metrics.eventDeliveriesFailed(failed, dead);
            log.warn("Dispatch round: {} of {} reference events not delivered ({} now dead); they wait for the retry",
                    failed, claimed.size(), dead);
        }
        var figures = new DispatchResult(confirmed, sent.size() - confirmed, failed - dead, dead, Duration.ZERO);
        var outage = BrokerOutage.outageIn(results);
        return new Outcome(new Confirmed(figures, 0, 0, Long.MAX_VALUE),
                claimed.size() == settings.flushLimit(), outage == null, outage);
    }
}
