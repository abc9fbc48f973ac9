package io.msgx.pipeline.delivery;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.event.FlightEventJson;
import io.msgx.pipeline.metrics.PipelineMetrics;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.pipeline.store.OutboxTarget;
import io.msgx.pipeline.store.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;

/**
 * Delivers committed outbox rows to the event sink (seeds §8). One round ({@link #dispatchOnce()}):
 * <ol>
 *   <li>Claim, as of now, up to {@code batch} pending notifications ({@code KAFKA:msg}) in {@code EVENT_ID} order,
 *       leaving out every FLID whose oldest pending notification waits for a retry, and up to {@code flush-limit}
 *       due projections ({@code KAFKA:schd}). The claim is frozen: rows committed while the round runs wait for
 *       the next one.</li>
 *   <li>Send them all, in claim order, as one asynchronous batch and wait, bounded by the sink, for every
 *       acknowledgement.</li>
 *   <li>Confirm, FLID by FLID, the acknowledged notifications <em>up to the first one that failed</em>
 *       ({@code SENT} and {@code SENT_AT} in one statement). Confirm a projection only if its row still holds the
 *       version sent; a newer version written meanwhile stays pending and goes out next round.</li>
 *   <li>Record the failure on the first failed notification of each FLID (attempts one more, backoff, and
 *       {@code DEAD} after the last attempt, kept as the dead-letter record) and on each failed projection. The
 *       FLID's later notifications of the round stay pending as they were, whatever the sink said of them.</li>
 * </ol>
 * <b>Order</b> (D-35). The notifications of one FLID go to the sink in {@code EVENT_ID} order within a round, and
 * the sink keeps that order per key (the Kafka sink: one idempotent producer, same key → same partition, and no
 * later record of a key is handed over once an earlier one was refused). When one of them fails, its FLID pauses
 * until the retry; the FLID's later notifications are sent again after it, so the last copy of every event a
 * consumer receives comes in order even if a partly failed batch let a later event through. Across FLIDs, and
 * between the two topics, there is no order. Delivery is at least once: a record the broker took whose
 * confirmation was lost is sent again.
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private static final Duration BACKLOG_REPORT_PERIOD = Duration.ofSeconds(1);

    private final PipelineStore store;
    private final EventSink sink;
    private final DispatchSettings settings;
    private final Clock clock;
    private final PipelineMetrics metrics;
    /** When the backlog gauges were last refreshed: counting a large backlog every round would cost more than a send. */
    private Instant backlogReportedAt;

    public Dispatcher(PipelineStore store, EventSink sink, DispatchSettings settings, Clock clock,
                      PipelineMetrics metrics) {
        this.store = store;
        this.sink = sink;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    public DispatchResult dispatchOnce() {
        var outbox = store.outbox();
        var claimedAt = clock.instant();
        var claimed = new ArrayList<OutboxEntry>(outbox.dueNotifications(claimedAt, settings.notificationBatch()));
        claimed.addAll(outbox.dueProjections(claimedAt, settings.flushLimit()));
        if (claimed.isEmpty()) {
            reportBacklog();
            return DispatchResult.NOTHING;
        }

        var sendingAt = clock.instant();
        var results = send(claimed);
        var now = clock.instant();
        var sentNotifications = new ArrayList<Long>();
        var sentProjections = new TreeMap<FlightId, Long>(); // FLID order, as the pump writes them: no deadlock
        var pausedFlids = new HashSet<FlightId>();
        int failed = 0;
        int dead = 0;
        for (int i = 0; i < claimed.size(); i++) {
            var entry = claimed.get(i);
            var event = entry.event();
            boolean notification = event.target() == OutboxTarget.KAFKA_MSG;
            if (notification && pausedFlids.contains(event.partitionKey())) {
                continue; // an earlier notification of this FLID failed: this one goes again after it
            }
            if (results.get(i) instanceof Delivery.Failed failure) {
                if (notification) {
                    pausedFlids.add(event.partitionKey());
                }
                int attempts = entry.attempts() + 1;
                boolean exhausted = settings.retry().exhausted(attempts);
                outbox.recordDeliveryFailure(entry.eventId(), failure.reason(),
                        settings.retry().nextAttemptAt(attempts, now), exhausted, now);
                failed++;
                if (exhausted) {
                    dead++;
                    log.error("Event {} ({} FLID {} v{}) DEAD after {} delivery attempts: {}", entry.eventId(),
                            event.target().code(), event.partitionKey(), event.stateVersion(), attempts,
                            failure.reason());
                }
            } else if (notification) {
                sentNotifications.add(entry.eventId());
            } else {
                sentProjections.put(event.partitionKey(), event.stateVersion());
            }
        }
        if (!sentNotifications.isEmpty()) {
            outbox.markAllSent(sentNotifications, now);
        }
        int confirmedProjections = sentProjections.isEmpty() ? 0 : outbox.markProjectionsSent(sentProjections, now).size();
        int delivered = sentNotifications.size() + confirmedProjections;
        int superseded = sentProjections.size() - confirmedProjections;
        metrics.eventsDelivered(delivered);
        if (failed > 0) {
            metrics.eventDeliveriesFailed(failed, dead);
            log.warn("Dispatch round: {} of {} events not delivered ({} now dead); their FLIDs wait for the retry",
                    failed, claimed.size(), dead);
        }
        if (log.isDebugEnabled()) {
            log.debug("Dispatch round: {} event(s) claimed in {} ms, sent in {} ms, confirmed in {} ms; {} delivered,"
                    + " {} superseded, {} failed", claimed.size(), Duration.between(claimedAt, sendingAt).toMillis(),
                    Duration.between(sendingAt, now).toMillis(), Duration.between(now, clock.instant()).toMillis(),
                    delivered, superseded, failed);
        }
        reportBacklog();
        return new DispatchResult(delivered, superseded, failed - dead, dead);
    }

    private List<Delivery> send(List<OutboxEntry> claimed) {
        var events = claimed.stream().map(Dispatcher::outgoing).toList();
        try {
            var results = sink.send(events);
            if (results.size() != events.size()) {
                throw new IllegalStateException("the sink answered " + results.size() + " results for " + events.size()
                        + " events");
            }
            return results;
        } catch (RuntimeException e) {
            log.warn("Event sink failed as a whole; every event of the round is retried: {}", e.toString());
            Delivery failure = new Delivery.Failed("sink failure: " + e);
            return events.stream().map(event -> failure).toList();
        }
    }

    private static OutgoingEvent outgoing(OutboxEntry entry) {
        var event = entry.event();
        var key = event.partitionKey().value();
        if (event.target() == OutboxTarget.KAFKA_MSG) {
            return new OutgoingEvent(OutgoingEvent.EventStream.MSG, key,
                    FlightEventJson.withEventId(event.payload(), entry.eventId()));
        }
        return new OutgoingEvent(OutgoingEvent.EventStream.SCHD, key, event.payload());
    }

    private void reportBacklog() {
        var now = clock.instant();
        if (backlogReportedAt != null && now.isBefore(backlogReportedAt.plus(BACKLOG_REPORT_PERIOD))) {
            return;
        }
        backlogReportedAt = now;
        var backlog = store.outbox().deliveryBacklog();
        var oldest = backlog.oldestPendingCreatedAt();
        metrics.deliveryBacklog(backlog.pending(), backlog.dead(),
                oldest == null ? Duration.ZERO : Duration.between(oldest, now));
    }
}
