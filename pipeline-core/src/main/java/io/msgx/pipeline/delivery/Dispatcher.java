package io.msgx.pipeline.delivery;

import io.msgx.pipeline.port.EventSink;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.OutboxEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;

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
 *
 * <p><b>Reference data</b> ({@code KAFKA:ref}, D-60) goes in a round of its own at the end of every run: up to
 * {@code flush-limit} due rows in {@code EVENT_ID} order, sent, then confirmed by {@code EVENT_ID} while still
 * {@code PENDING}. The outbox holds one row per {@code RTYPE:RKEY} with its latest change, so a key never has two
 * records in flight and its order on the topic holds; a row replaced while its older change was being sent keeps
 * its new {@code EVENT_ID} pending and goes out in the next run (counted as superseded).
 *
 * <p><b>Broker outage</b> (D-66). A failure the sink reports as an outage ({@link DeliveryOutcome.Failed#outage()}: the broker
 * unreachable or too slow, or the sink failing as a whole) is not the event's fault and uses no delivery attempt: the
 * row stays {@code PENDING} exactly as it was, however long the broker is away, and only refusals of a record count
 * toward {@code DEAD}. A run that meets an outage confirms what was acknowledged before it (per FLID up to the first
 * failure, as for any failure), records nothing against the rest, skips the reference round, forgets what it had
 * settled (the next run claims from the first pending event) and sends nothing more until a short pause has passed
 * ({@link BrokerOutage#outageBackoff}): the run's {@link DispatchResult#brokerAway()} tells the loop when to ask
 * again. The outage is logged once when it starts (WARN, reminded every minute) and once when a send goes through
 * again (INFO).
 *
 * <p>The parts: {@link OutgoingEvents} maps an outbox row to the record sent (and each target to its stream),
 * {@link EventBatchSender} hands a round to the sink, {@link RoundConfirmation} confirms a round and records its
 * failures, {@link ReferenceRound} is the reference-data round, {@link BrokerOutage} the broker away.
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private static final Duration BACKLOG_REPORT_PERIOD = Duration.ofSeconds(1);
    /** The same while a backlog runs: counting a million pending rows takes PostgreSQL about 0.2 s. */
    private static final Duration BACKLOG_REPORT_PERIOD_BEHIND = Duration.ofSeconds(10);
    /** Rounds one {@link #dispatchBacklog} runs at most, so the backlog gauges and the loop's checks come regularly. */
    static final int BACKLOG_ROUNDS = 20;
    /**
     * How often a run reads from the first pending event whatever this dispatcher has settled (D-47): a safety net
     * for a row made pending behind its back (by hand, in SQL), found within this period.
     */
    static final Duration FULL_SCAN_PERIOD = Duration.ofMinutes(1);

    /**
     * Runs a round's confirmation while the next round is claimed and sent (D-40): the caller's, who owns its thread
     * and stops it; at most one task at a time is handed to it (each confirmation is awaited before the next).
     */
    private final Executor confirmations;

    private final PipelineStore store;
    private final DispatchSettings settings;
    private final Clock clock;
    private final PipelineMetrics metrics;
    /** When the backlog gauges were last refreshed: counting a large backlog every round would cost more than a send. */
    private Instant backlogReportedAt;
    /**
     * What earlier runs settled (D-47): every notification up to {@code settledNotifications} and every projection up
     * to {@code settledProjections} is confirmed, {@code DEAD}, waiting for its retry, or a notification held back
     * behind a head that waits for its retry (the head's release lowers the mark to the head). The next run claims
     * above these, or from just before the first due retry. 0 (the start, and after a run that failed): from the
     * first pending event. Touched by the dispatching thread only.
     */
    private long settledNotifications;
    private long settledProjections;
    /** When a run last claimed from the first pending event; null before the first run. */
    private Instant fullScanAt;
    /** The broker away (D-66): the pause before it is tried again, and the outage's log. */
    private final BrokerOutage brokerOutage;
    private final EventBatchSender sender;
    private final RoundConfirmation confirmation;
    private final ReferenceRound references;

    /**
     * A dispatcher that confirms each round in the calling thread before claiming the next: a backlog's rounds do
     * not overlap. For tests and tools; the runner gives an executor ({@link #Dispatcher(PipelineStore, EventSink,
     * DispatchSettings, Clock, PipelineMetrics, Executor)}).
     */
    public Dispatcher(PipelineStore store, EventSink sink, DispatchSettings settings, Clock clock,
                      PipelineMetrics metrics) {
        this(store, sink, settings, clock, metrics, Runnable::run);
    }

    /**
     * A dispatcher whose backlog runs confirm a round on {@code confirmations} while the next is claimed and sent
     * (D-40). The executor is the caller's to stop; pipeline-core creates no thread (ArchUnit, D-91).
     */
    public Dispatcher(PipelineStore store, EventSink sink, DispatchSettings settings, Clock clock,
                      PipelineMetrics metrics, Executor confirmations) {
        this.confirmations = Objects.requireNonNull(confirmations, "confirmations");
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
        this.brokerOutage = new BrokerOutage(clock);
        this.sender = new EventBatchSender(sink);
        this.confirmation = new RoundConfirmation(store, settings, clock, metrics);
        this.references = new ReferenceRound(store, sender, confirmation, settings, clock, metrics);
    }

    /** One round: one batch claimed, sent and confirmed (or its failures recorded) before this returns. */
    public DispatchResult dispatchOnce() {
        return dispatch(1);
    }

    /**
     * Rounds back to back while they come full, at most {@link #BACKLOG_ROUNDS}, each round's confirmation running
     * while the next round is claimed and sent (D-40): a round of 5,000 cost claim + send + confirm, and the
     * confirmation (an {@code UPDATE} of every row) is the largest part. The next round claims only events after
     * the previous round's ({@code EVENT_ID} above its highest), since those are still {@code PENDING} until their
     * confirmation commits; a round with a failure, not full, or retrying the head of a paused FLID is the last, and
     * everything is confirmed when this returns. Per-FLID order holds as in single rounds: a round is sent only after
     * the previous round's acknowledgements, and a failure ends the run before anything later of its FLID is claimed.
     */
    public DispatchResult dispatchBacklog() {
        return dispatch(BACKLOG_ROUNDS);
    }

    private DispatchResult dispatch(int maxRounds) {
        var startedAt = clock.instant();
        var pause = brokerOutage.pauseLeft(startedAt);
        if (pause != null) {
            return new DispatchResult(0, 0, 0, 0, pause);
        }
        var result = Confirmed.NOTHING;
        Future<Confirmed> confirming = null;
        boolean caughtUp = true;
        String outage = null;
        boolean answered = false;
        try {
            long afterNotification = 0;
            long afterProjection = 0;
            if (resumesWhereSettled(startedAt)) {
                var dueRetries = store.outboxQueries().dueRetries(startedAt);
                if (dueRetries.isPresent()) {
                    afterNotification = Math.min(settledNotifications, dueRetries.get().firstNotification() - 1);
                    afterProjection = Math.min(settledProjections, dueRetries.get().firstProjection() - 1);
                }
            }
            for (int n = 0; n < maxRounds; n++) {
                var round = claim(afterNotification, afterProjection);
                if (round.claimed().isEmpty()) {
                    caughtUp = true;
                    break;
                }
                var results = send(round.claimed());
                var sentAt = clock.instant();
                if (confirming != null) {
                    var previous = confirming;
                    confirming = null;
                    result = result.then(await(previous));
                }
                boolean failures = results.stream().anyMatch(DeliveryOutcome.Failed.class::isInstance);
                outage = BrokerOutage.outageIn(results);
                answered |= outage == null;
                boolean full = round.notifications() == settings.notificationBatch()
                        || round.claimed().size() - round.notifications() == settings.flushLimit();
                caughtUp = !full;
                if (n + 1 == maxRounds || failures || !full || round.retriedHead()) {
                    result = result.then(confirmation.confirm(round, results, sentAt));
                    break;
                }
                confirming = CompletableFuture.supplyAsync(() -> confirmation.confirm(round, results, sentAt),
                        confirmations);
                afterNotification = Math.max(afterNotification, round.lastNotification());
                afterProjection = Math.max(afterProjection, round.lastProjection());
            }
            if (confirming != null) {
                var previous = confirming;
                confirming = null;
                result = result.then(await(previous));
            }
            if (outage == null) { // the broker that just failed the flight rounds is not asked again in this run
                var references = this.references.dispatch();
                result = result.then(references.confirmed());
                caughtUp &= !references.full();
                outage = references.outage();
                answered |= references.answered();
            }
        } catch (RuntimeException | Error e) {
            settledNotifications = 0;
            settledProjections = 0;
            if (confirming != null) {
                try {
                    await(confirming);
                } catch (RuntimeException | Error alsoFailed) {
                    e.addSuppressed(alsoFailed);
                }
            }
            throw e;
        }
        if (outage != null) {
            return brokerAway(result.figures(), outage);
        }
        if (answered) {
            brokerOutage.answered();
        }
        settledNotifications = Math.min(Math.max(settledNotifications, result.lastNotification()),
                result.lowestReleasedHead());
        settledProjections = Math.max(settledProjections, result.lastProjection());
        reportBacklog(caughtUp);
        return result.figures();
    }

    /**
     * The end of a run that met the broker away: nothing settled is trusted any more (the next run claims from the
     * first pending event, where the events it did not take wait with their attempts untouched), no send before the
     * backoff, the outage logged once.
     */
    private DispatchResult brokerAway(DispatchResult figures, String reason) {
        settledNotifications = 0;
        settledProjections = 0;
        var backoff = brokerOutage.failed(reason, settings.retry().backoff());
        reportBacklog(true);
        return new DispatchResult(figures.delivered(), figures.superseded(), figures.failed(), figures.dead(), backoff);
    }

    /**
     * Whether this run may start where earlier runs settled: not the first run, nor after a failed one (both leave
     * the marks at 0), nor once {@link #FULL_SCAN_PERIOD} has passed since a run last read from the first pending
     * event (then this one does).
     */
    private boolean resumesWhereSettled(Instant now) {
        if (fullScanAt == null || !now.isBefore(fullScanAt.plus(FULL_SCAN_PERIOD))
                || (settledNotifications == 0 && settledProjections == 0)) {
            fullScanAt = now;
            return false;
        }
        return true;
    }

    private ClaimedRound claim(long afterNotification, long afterProjection) {
        var claimedAt = clock.instant();
        var claimed = new ArrayList<OutboxEntry>(store.notifications().dueNotifications(claimedAt,
                settings.notificationBatch(), afterNotification));
        int notifications = claimed.size();
        claimed.addAll(store.projections().dueProjections(claimedAt, settings.flushLimit(), afterProjection));
        long lastNotification = 0;
        long lastProjection = 0;
        boolean retriedHead = false;
        for (int i = 0; i < claimed.size(); i++) {
            if (i < notifications) {
                lastNotification = Math.max(lastNotification, claimed.get(i).eventId());
                retriedHead |= claimed.get(i).nextAttemptAt() != null;
            } else {
                lastProjection = Math.max(lastProjection, claimed.get(i).eventId());
            }
        }
        return new ClaimedRound(claimed, notifications, lastNotification, lastProjection, retriedHead, claimedAt,
                clock.instant());
    }

    /** The outcome of a confirmation running in {@link #confirmations}; its failure is rethrown as it was. */
    private static <T> T await(Future<T> confirming) {
        try {
            return confirming.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("confirming a dispatch round failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // The confirmation may still commit; if it does not, its events are sent again (at least once).
            log.warn("Interrupted while a dispatch round was being confirmed; if the confirmation fails, its events "
                    + "are sent again");
            throw new IllegalStateException("interrupted while a dispatch round was being confirmed", e);
        }
    }

    private List<DeliveryOutcome> send(List<OutboxEntry> claimed) {
        return sender.send(claimed.stream().map(OutgoingEvents::of).toList());
    }

    /**
     * Refresh the backlog gauges: at most once a {@link #BACKLOG_REPORT_PERIOD} once the backlog is caught up (the
     * call's last claim was empty or not full), at most once a {@link #BACKLOG_REPORT_PERIOD_BEHIND} while it runs.
     */
    private void reportBacklog(boolean caughtUp) {
        var now = clock.instant();
        var period = caughtUp ? BACKLOG_REPORT_PERIOD : BACKLOG_REPORT_PERIOD_BEHIND;
        if (backlogReportedAt != null && now.isBefore(backlogReportedAt.plus(period))) {
            return;
        }
        backlogReportedAt = now;
        var backlog = store.outboxQueries().deliveryBacklog();
        var oldest = backlog.oldestPendingCreatedAt();
        metrics.deliveryBacklog(backlog.pending(), backlog.dead(),
                oldest == null ? Duration.ZERO : Duration.between(oldest, now));
    }
}
