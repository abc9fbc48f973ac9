package io.msgx.pipeline.delivery;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.store.StoreConflictException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The confirmation of a round of notifications and projections, and the record of failed deliveries (seeds §8,
 * {@link Dispatcher}): the acknowledged notifications confirmed FLID by FLID up to the first that failed, a
 * projection only if its row still holds the version sent, the failure recorded on the first failed notification of
 * each FLID and on each failed projection. A failure the sink reports as an outage uses no attempt (D-66).
 */
final class RoundConfirmation {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /**
     * Times a confirmation statement is tried when the database rolls it back to break a deadlock or a serialization
     * conflict (D-43, D-45): it committed nothing and is a conditional update, so trying it again is safe, and cheaper
     * than failing the run, which sends the whole round again.
     */
    static final int CONFLICT_TRIES = 3;

    private final PipelineStore store;
    private final DispatchSettings settings;
    private final Clock clock;
    private final PipelineMetrics metrics;

    RoundConfirmation(PipelineStore store, DispatchSettings settings, Clock clock, PipelineMetrics metrics) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Confirm what the sink acknowledged and record what it refused; the round's figures. */
    Confirmed confirm(ClaimedRound round, List<DeliveryOutcome> results, Instant now) {
        var claimed = round.claimed();
        var sentNotifications = new ArrayList<Long>();
        var sentProjections = new TreeMap<FlightId, Long>(); // FLID order, as the pump writes them: no deadlock
        var pausedFlids = new HashSet<FlightId>();
        long lowestReleasedHead = Long.MAX_VALUE;
        int failed = 0;
        int dead = 0;
        for (int i = 0; i < claimed.size(); i++) {
            var entry = claimed.get(i);
            var event = entry.event();
            boolean notification = event.target() == OutboxTarget.KAFKA_MSG;
            if (notification && pausedFlids.contains(event.partitionKey())) {
                continue; // an earlier notification of this FLID failed: this one goes again after it
            }
            if (results.get(i) instanceof DeliveryOutcome.Failed failure) {
                if (notification) {
                    pausedFlids.add(event.partitionKey());
                }
                if (failure.outage()) {
                    continue; // the broker is away (D-66): the row stays as it was, no attempt used
                }
                int attempts = entry.attempts() + 1;
                boolean exhausted = recordFailure("event", entry.eventId(), attempts, failure, now);
                failed++;
                if (exhausted) {
                    dead++;
                    if (notification) {
                        lowestReleasedHead = Math.min(lowestReleasedHead, entry.eventId()); // D-23: the FLID moves on
                    }
                    log.error("Event {} ({} FLID {} v{}) DEAD after {} delivery attempts: {}", entry.eventId(),
                            event.target().code(), event.partitionKey(), event.stateVersion(), attempts,
                            failure.reason());
                }
            } else if (notification) {
                sentNotifications.add(entry.eventId());
                metrics.committedToAcknowledged(Duration.between(event.createdAt(), now));
                if (entry.nextAttemptAt() != null) {
                    lowestReleasedHead = Math.min(lowestReleasedHead, entry.eventId());
                }
            } else {
                sentProjections.put(event.partitionKey(), event.stateVersion());
                metrics.committedToAcknowledged(Duration.between(event.createdAt(), now));
            }
        }
        if (!sentNotifications.isEmpty()) {
            untilNoConflict("confirming " + sentNotifications.size() + " notification(s)",
                    () -> store.notifications().markAllSent(sentNotifications, now));
        }
        int confirmedProjections = sentProjections.isEmpty() ? 0
                : untilNoConflict("confirming " + sentProjections.size() + " projection(s)",
                        () -> store.projections().markProjectionsSent(sentProjections, now)).size();
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
                    + " {} superseded, {} failed", claimed.size(),
                    Duration.between(round.claimedAt(), round.sendingAt()).toMillis(),
                    Duration.between(round.sendingAt(), now).toMillis(), Duration.between(now, clock.instant()).toMillis(),
                    delivered, superseded, failed);
        }
        return new Confirmed(new DispatchResult(delivered, superseded, failed - dead, dead, Duration.ZERO),
                round.lastNotification(),
                round.lastProjection(), lowestReleasedHead);
    }

    /**
     * Records in the outbox the failed delivery attempt number {@code attempts} of row {@code eventId} (a
     * {@code what}): its next attempt by the retry policy, or {@code DEAD} when that was the last. Returns whether it was the last.
     */
    boolean recordFailure(String what, long eventId, int attempts, DeliveryOutcome.Failed failure,
                         Instant now) {
        boolean exhausted = settings.retry().exhausted(attempts);
        untilNoConflict("recording the failed delivery of " + what + " " + eventId,
                () -> store.deadLetters().recordDeliveryFailure(eventId, failure.reason(),
                        settings.retry().nextAttemptAt(attempts, now), exhausted, now));
        return exhausted;
    }

    /**
     * {@code statement}, tried again at once, up to {@link #CONFLICT_TRIES} times in all, while the database picks it
     * as the victim of a deadlock or a serialization conflict; any other failure, or the last conflict, is thrown.
     */
    static <T> T untilNoConflict(String what, Supplier<T> statement) {
        for (int tried = 1; ; tried++) {
            try {
                return statement.get();
            } catch (StoreConflictException e) {
                if (tried == CONFLICT_TRIES) {
                    throw e;
                }
                log.warn("Dispatch: {} lost a conflict with another transaction (try {} of {}), trying again: {}",
                        what, tried, CONFLICT_TRIES, e.getMessage());
            }
        }
    }
}
