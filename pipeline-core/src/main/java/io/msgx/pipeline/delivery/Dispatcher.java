package io.msgx.pipeline.delivery;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.event.FlightEventJson;
import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.port.EventSink;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.pipeline.store.OutboxTarget;
import io.msgx.pipeline.store.StoreConflictException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.function.Supplier;

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
 * <p><b>Broker outage</b> (D-66). A failure the sink reports as an outage ({@link Delivery.Failed#outage()}: the broker
 * unreachable or too slow, or the sink failing as a whole) is not the event's fault and uses no delivery attempt: the
 * row stays {@code PENDING} exactly as it was, however long the broker is away, and only refusals of a record count
 * toward {@code DEAD}. A run that meets an outage confirms what was acknowledged before it (per FLID up to the first
 * failure, as for any failure), records nothing against the rest, skips the reference round, forgets what it had
 * settled (the next run claims from the first pending event) and sends nothing more until a short pause has passed
 * ({@link #outageBackoff}): the run's {@link DispatchResult#brokerAway()} tells the loop when to ask again. The outage
 * is logged once when it starts (WARN, reminded every minute) and once when a send goes through again (INFO).
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private static final Duration BACKLOG_REPORT_PERIOD = Duration.ofSeconds(1);
    /** The same while a backlog runs: counting a million pending rows takes PostgreSQL about 0.2 s. */
    private static final Duration BACKLOG_REPORT_PERIOD_BEHIND = Duration.ofSeconds(10);
    /** Rounds one {@link #dispatchBacklog} runs at most, so the backlog gauges and the loop's checks come regularly. */
    static final int BACKLOG_ROUNDS = 20;
    /**
     * Times a confirmation statement is tried when the database rolls it back to break a deadlock or a serialization
     * conflict (D-43, D-45): it committed nothing and is a conditional update, so trying it again is safe, and cheaper
     * than failing the run, which sends the whole round again.
     */
    static final int CONFLICT_TRIES = 3;
    /**
     * How often a run reads from the first pending event whatever this dispatcher has settled (D-47): a safety net
     * for a row made pending behind its back (by hand, in SQL), found within this period.
     */
    static final Duration FULL_SCAN_PERIOD = Duration.ofMinutes(1);
    /**
     * The longest pause between two tries of a broker that is away (D-66). A try already waits the sink's own bound
     * while the broker does not answer (the producer's {@code max-block} for its metadata, the delivery timeout for a
     * record), so the pause only keeps a sink that fails at once (a closed producer, errors answered quickly) from
     * spinning; the retry policy's tiers, which grow to half an hour for a record that keeps being refused, would keep
     * the whole outbox waiting long after the broker is back.
     */
    static final Duration MAX_OUTAGE_BACKOFF = Duration.ofMillis(250);

    /**
     * Runs a round's confirmation while the next round is claimed and sent (D-40): the caller's, who owns its thread
     * and stops it; at most one task at a time is handed to it (each confirmation is awaited before the next).
     */
    private final Executor confirmations;

    private final PipelineStore store;
    private final EventSink sink;
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
    /** The broker's outage as operators read it: one WARN when it starts, one INFO when it ends. */
    private final OutageLog brokerOutage;
    /** While the broker is away: nothing is sent before this; null otherwise. */
    private Instant sendNotBefore;

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
        this.sink = sink;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
        this.brokerOutage = new OutageLog(log, "Kafka broker", clock);
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

    /**
     * A claimed round: its notifications and projections in claim order, the highest EVENT_ID of each, and whether
     * it retries the head of a paused FLID. Such a round ends the run: once that head is confirmed the FLID is no
     * longer held back, and its later notifications below the cursor (left out while it was paused) must go before
     * those above it, which only a claim from the start gives.
     */
    private record Round(List<OutboxEntry> claimed, int notifications, long lastNotification, long lastProjection,
                         boolean retriedHead, Instant claimedAt, Instant sendingAt) {
    }

    private DispatchResult dispatch(int maxRounds) {
        var startedAt = clock.instant();
        if (sendNotBefore != null && startedAt.isBefore(sendNotBefore)) {
            return new DispatchResult(0, 0, 0, 0, Duration.between(startedAt, sendNotBefore));
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
                boolean failures = results.stream().anyMatch(Delivery.Failed.class::isInstance);
                outage = outageIn(results);
                answered |= outage == null;
                boolean full = round.notifications() == settings.notificationBatch()
                        || round.claimed().size() - round.notifications() == settings.flushLimit();
                caughtUp = !full;
                if (n + 1 == maxRounds || failures || !full || round.retriedHead()) {
                    result = result.then(confirm(round, results, sentAt));
                    break;
                }
                confirming = CompletableFuture.supplyAsync(() -> confirm(round, results, sentAt),
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
                var references = dispatchReferences();
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
            sendNotBefore = null;
            brokerOutage.recovered();
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
        var backoff = outageBackoff(settings.retry().backoff());
        sendNotBefore = clock.instant().plus(backoff);
        brokerOutage.failed(reason, "pending events keep their delivery attempts and are sent again in "
                + backoff.toMillis() + " ms");
        reportBacklog(true);
        return new DispatchResult(figures.delivered(), figures.superseded(), figures.failed(), figures.dead(), backoff);
    }

    /**
     * How long to wait before trying a broker that is away again: the delivery retry policy's first tier, at most
     * {@link #MAX_OUTAGE_BACKOFF} (which is also the pause when the policy has no tier), at least 1 ms.
     */
    static Duration outageBackoff(List<Duration> tiers) {
        var tier = tiers.isEmpty() || tiers.get(0).compareTo(MAX_OUTAGE_BACKOFF) > 0 ? MAX_OUTAGE_BACKOFF : tiers.get(0);
        return tier.isZero() ? Duration.ofMillis(1) : tier;
    }

    /** The reason of the first failure of {@code results} that was an outage; null when the broker answered. */
    private static String outageIn(List<Delivery> results) {
        for (var result : results) {
            if (result instanceof Delivery.Failed failure && failure.outage()) {
                return failure.reason();
            }
        }
        return null;
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

    /**
     * What the confirmed rounds of a run add up to: their figures, the highest notification and projection they
     * claimed, and the lowest notification among them that released its FLID — a retried head confirmed, or a
     * notification parked {@code DEAD} — whose held-back successors the next run must claim from there.
     */
    private record Confirmed(DispatchResult figures, long lastNotification, long lastProjection,
                             long lowestReleasedHead) {

        static final Confirmed NOTHING = new Confirmed(DispatchResult.NOTHING, 0, 0, Long.MAX_VALUE);

        Confirmed then(Confirmed next) {
            return new Confirmed(plus(figures, next.figures), Math.max(lastNotification, next.lastNotification),
                    Math.max(lastProjection, next.lastProjection), Math.min(lowestReleasedHead, next.lowestReleasedHead));
        }
    }

    private Round claim(long afterNotification, long afterProjection) {
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
        return new Round(claimed, notifications, lastNotification, lastProjection, retriedHead, claimedAt,
                clock.instant());
    }

    /** Confirm what the sink acknowledged and record what it refused; the round's figures. */
    private Confirmed confirm(Round round, List<Delivery> results, Instant now) {
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
            if (results.get(i) instanceof Delivery.Failed failure) {
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
     * A reference round's figures, whether it claimed as many rows as it may (more may be waiting), whether the sink
     * was asked and the broker answered, and the reason of the broker's outage if it met one (null otherwise).
     */
    private record ReferenceRound(Confirmed confirmed, boolean full, boolean answered, String outage) {
    }

    /**
     * One round of {@code KAFKA:ref} rows (D-60): claim the due ones, send them, confirm the acknowledged ones by
     * {@code EVENT_ID} and record the failures, as for projections.
     */
    private ReferenceRound dispatchReferences() {
        var claimed = store.referenceNotifications().dueReferences(clock.instant(), settings.flushLimit());
        if (claimed.isEmpty()) {
            return new ReferenceRound(Confirmed.NOTHING, false, false, null);
        }
        var events = claimed.stream().map(entry -> new OutgoingEvent(OutgoingEvent.EventStream.REF,
                entry.event().partitionKey(), entry.event().payload(), EventAttributes.ofReference(entry.event())))
                .toList();
        var results = sendEvents(events);
        var now = clock.instant();
        var sent = new ArrayList<Long>();
        int failed = 0;
        int dead = 0;
        for (int i = 0; i < claimed.size(); i++) {
            var entry = claimed.get(i);
            if (results.get(i) instanceof Delivery.Failed failure) {
                if (failure.outage()) {
                    continue; // the broker is away (D-66): the row stays as it was, no attempt used
                }
                int attempts = entry.attempts() + 1;
                boolean exhausted = recordFailure("reference event", entry.eventId(), attempts, failure, now);
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
        int confirmed = sent.isEmpty() ? 0 : untilNoConflict("confirming " + sent.size() + " reference event(s)",
                () -> store.referenceNotifications().markReferencesSent(sent, now));
        metrics.eventsDelivered(confirmed);
        if (failed > 0) {
            metrics.eventDeliveriesFailed(failed, dead);
            log.warn("Dispatch round: {} of {} reference events not delivered ({} now dead); they wait for the retry",
                    failed, claimed.size(), dead);
        }
        var figures = new DispatchResult(confirmed, sent.size() - confirmed, failed - dead, dead, Duration.ZERO);
        var outage = outageIn(results);
        return new ReferenceRound(new Confirmed(figures, 0, 0, Long.MAX_VALUE),
                claimed.size() == settings.flushLimit(), outage == null, outage);
    }

    /**
     * Records in the outbox the failed delivery attempt number {@code attempts} of row {@code eventId} (a
     * {@code what}): its next attempt by the retry policy, or {@code DEAD} when that was the last. Returns whether it was the last.
     */
    private boolean recordFailure(String what, long eventId, int attempts, Delivery.Failed failure,
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
    private static <T> T untilNoConflict(String what, Supplier<T> statement) {
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

    private static DispatchResult plus(DispatchResult a, DispatchResult b) {
        return new DispatchResult(a.delivered() + b.delivered(), a.superseded() + b.superseded(),
                a.failed() + b.failed(), a.dead() + b.dead(), Duration.ZERO);
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

    private List<Delivery> send(List<OutboxEntry> claimed) {
        return sendEvents(claimed.stream().map(Dispatcher::outgoing).toList());
    }

    private List<Delivery> sendEvents(List<OutgoingEvent> events) {
        try {
            var results = sink.send(events);
            if (results.size() != events.size()) {
                throw new IllegalStateException("the sink answered " + results.size() + " results for " + events.size()
                        + " events");
            }
            return results;
        } catch (RuntimeException e) {
            log.warn("Event sink failed as a whole; every event of the round is retried: {}", e.toString());
            Delivery failure = Delivery.unreachable("sink failure: " + e); // not the events' fault: no attempt used
            return events.stream().map(event -> failure).toList();
        }
    }

    private static OutgoingEvent outgoing(OutboxEntry entry) {
        var event = entry.event();
        var key = event.partitionKey().value();
        var attributes = EventAttributes.ofFlight(event);
        if (event.target() == OutboxTarget.KAFKA_MSG) {
            return new OutgoingEvent(OutgoingEvent.EventStream.MSG, key,
                    FlightEventJson.withEventId(event.payload(), entry.eventId()), attributes);
        }
        return new OutgoingEvent(OutgoingEvent.EventStream.SCHD, key, event.payload(), attributes);
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
