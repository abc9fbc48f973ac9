package io.msgx.adapter.kafka;

import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.kafka.KafkaMessageFactory;
import io.msgx.pipeline.delivery.DeliveryOutcome;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.port.EventSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The event sink on one transactional Kafka producer ({@code transactional.id} = {@link KafkaSinkSettings#transactionalId()},
 * idempotent, {@code acks=all}, at most 5 requests in flight per connection, String keys and values in UTF-8). Each
 * event goes to the topic of its stream ({@link KafkaSinkSettings#msgTopic()}, {@link KafkaSinkSettings#schdTopic()},
 * {@link KafkaSinkSettings#referenceTopic()}), keyed by its FLID (or {@code RTYPE:RKEY}), so all records of one key
 * land on one partition; a null value is sent as a tombstone.
 *
 * <p><b>A round is one transaction</b> (D-109). Every instance of a site uses the same transactional id, so the
 * instance that takes the leader lease over fences the producer of the one it replaced when it starts its first
 * round ({@code initTransactions}): the broker ends that producer's open transaction and refuses anything it sends
 * later. An instance frozen with records in its producer's memory (a long pause, a paused VM) cannot write them,
 * stale, after the new active instance's newer ones once it thaws: on a compacted topic the older value would win.
 * Consumers read with {@code isolation.level=read_committed} (docs/delivery.md); a round that is aborted is sent again.
 *
 * <p><b>Guarantees of {@link #send}.</b>
 * <ul>
 *   <li>One {@link DeliveryOutcome} per event, in the order of the events. {@link DeliveryOutcome.Delivered} means the broker
 *       acknowledged the record with {@code acks=all} and the round's transaction committed.</li>
 *   <li>A record's failure is its {@link DeliveryOutcome.Failed} (the reason names the exception and its message, or
 *       the wait that ran out), never an exception. A failed record aborts the round's transaction. When it was a
 *       refusal of the record, the round goes again at once in a new transaction without it and without the later
 *       records of its key (which fail with it: they must not overtake it, D-35), so the other records are unaffected;
 *       when it was an outage, the other records fail as an outage too ("not committed"), which uses none of their
 *       attempts.</li>
 *   <li>Bounded by {@link KafkaSinkSettings#sendBound()} from the call: {@code max-block} to start the transaction
 *       (the first round of a producer only), records handed to the producer only during the next {@code max-block}
 *       (one hand-over blocks at most {@code max-block}: metadata, buffer), the acknowledgements awaited up to
 *       {@code delivery-timeout} + 1 s more, then {@code max-block} to commit or abort. Whatever is still open then is
 *       {@code Failed("timed out after ...")} and the round aborted. A round that lost a refused record starts again
 *       only within the first two {@code max-block}s of the call.</li>
 *   <li>Within a partition the producer keeps the hand-over order, also across retries (idempotence). Delivery is at
 *       least once: a round whose commit was not confirmed is sent again.</li>
 * </ul>
 * <b>Whose fault</b> (D-66). Each {@code Failed} says whether it is an outage ({@link DeliveryOutcome#unreachable}: the broker
 * did not take or answer the record in time — Kafka's {@code TimeoutException}, any other {@link RetriableException}
 * such as a lost connection, no leader or too few in-sync replicas, the hand-over cut-off, the wait that ran out, an
 * interrupt, a round not committed, a producer fenced by another instance) or a refusal of this record
 * ({@link DeliveryOutcome#refused}: too large, not authorised, not serialisable, an invalid topic — every other exception).
 * Only refusals use one of the event's delivery attempts.
 *
 * <p><b>The producer</b> is replaced by a new one (and {@code producerListener} told, for its meters) when it can no
 * longer work: fenced by another instance, or in a transaction state it cannot leave. One WARN line is logged per
 * round with failures (counts and the first reason). Thread-safe: rounds are sent one at a time.
 *
 * <p><b>Record size.</b> A record over the producer's {@code max.request.size} (default 1 MiB, settable through
 * {@code msgx.kafka.producer.max.request.size}) is refused by the producer. Keep that value, and
 * {@code batch.size}, at or below the topics' {@code max.message.bytes}: a batch the <em>broker</em> refuses as too
 * large makes the producer split it, and kafka-clients 4.3.1 can split a too-large record together with a small
 * neighbour forever (KAFKA-8202/8350), delaying that partition until the delivery timeout.
 * {@link KafkaTopics#ensure} checks this for the topics it sees.
 */
public final class KafkaEventSink implements EventSink, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaEventSink.class);
    /** How the result of a record held back behind a refused record of its key begins. */
    private static final String HELD_BACK = "not sent: the producer refused an earlier record of FLID ";

    private final KafkaSinkSettings settings;
    /** {@code content-type} of every record: the values are JSON. */
    static final String CONTENT_TYPE = "application/json";
    /** The header that carries a flight record's {@code stateVersion}, tombstones included. */
    public static final String STATE_VERSION_HEADER = "msgx_stateversion";
    /** The header that carries the mailbox message that caused the change (0 for a retention change). */
    public static final String MSG_ID_HEADER = "msgx_msgid";

    private final Consumer<Producer<?, ?>> producerListener;
    private final URI eventSource;
    private Producer<String, byte[]> producer;
    /** {@code initTransactions} done on {@link #producer}. */
    private boolean started;
    private boolean closed;

    /** Creates the producer; it connects lazily, on the first round. */
    public KafkaEventSink(KafkaSinkSettings settings) {
        this(settings, producer -> { });
    }

    /**
     * Creates the producer, and tells {@code producerListener} of it and of every producer that replaces it (for its
     * client meters); it connects lazily, on the first round.
     */
    public KafkaEventSink(KafkaSinkSettings settings, Consumer<Producer<?, ?>> producerListener) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.producerListener = Objects.requireNonNull(producerListener, "producerListener");
        this.eventSource = URI.create(settings.eventSource());
        this.producer = new KafkaProducer<>(settings.producerConfig());
        producerListener.accept(producer);
    }

    public KafkaSinkSettings settings() {
        return settings;
    }

    @Override
    public synchronized List<DeliveryOutcome> send(List<OutgoingEvent> events) {
        Objects.requireNonNull(events, "events");
        if (events.isEmpty()) {
            return List.of();
        }
        var deliveries = inTransaction(events);
        reportFailures(events, deliveries);
        return deliveries;
    }

    /**
     * Waits up to {@code max-block} for records still in the producer, then drops them (they are still pending in
     * the outbox and go out again); an open transaction is aborted.
     */
    @Override
    public synchronized void close() {
        closed = true;
        producer.close(settings.maxBlock());
    }

    /**
     * The round in one transaction. When a record of it is refused, the transaction is aborted and the round goes again
     * at once in a new one, without that record and the later records of its key (they must not overtake it, D-35),
     * which fail with it; so a refusal costs the round's other records nothing but a second try. That happens while
     * the call is within its first two {@code max-block}s; after that, or when the first failure is an outage, the
     * round's other records fail as an outage ("not committed").
     */
    private List<DeliveryOutcome> inTransaction(List<OutgoingEvent> events) {
        long againUntil = System.nanoTime() + settings.maxBlock().multipliedBy(2).toNanos();
        var results = new DeliveryOutcome[events.size()];
        var pending = new ArrayList<Integer>();
        for (int i = 0; i < events.size(); i++) {
            pending.add(i);
        }
        while (!pending.isEmpty()) {
            var round = pending.stream().map(events::get).toList();
            var attempt = oneTransaction(round);
            var outcome = attempt.deliveries();
            int at = attempt.culprit();
            if (at < 0) {
                for (int k = 0; k < round.size(); k++) {
                    results[pending.get(k)] = outcome.get(k);
                }
                break;
            }
            var failure = (DeliveryOutcome.Failed) outcome.get(at);
            boolean again = !failure.outage() && System.nanoTime() - againUntil < 0;
            var notCommitted = notCommitted("a record of it failed: " + failure.reason());
            var refusedKey = keyOf(round.get(at));
            var next = new ArrayList<Integer>();
            for (int k = 0; k < round.size(); k++) {
                var event = round.get(k);
                if (k == at) {
                    results[pending.get(k)] = failure;
                } else if (k > at && keyOf(event).equals(refusedKey)) {
                    results[pending.get(k)] = new DeliveryOutcome.Failed(HELD_BACK + event.key() + " in this batch, and a "
                            + "later one must not overtake it", failure.outage());
                } else if (again) {
                    next.add(pending.get(k));
                } else {
                    // an outage of its own keeps its reason; a record written, or failed with the culprit's error,
                    // was not committed
                    results[pending.get(k)] = outcome.get(k) instanceof DeliveryOutcome.Failed own && own.outage() ? own
                            : notCommitted;
                }
            }
            pending = next;
        }
        return List.of(results);
    }

    /**
     * One transaction's results, and the index of the record whose failure aborted it ({@code -1}: it committed): the
     * record the producer refused on the spot if one was, else the first failure in hand-over order. What the producer
     * says of the others says nothing about them: once a transaction is in error, it fails the records it had not yet
     * written with that same failure or with its own error state.
     */
    private record Attempt(List<DeliveryOutcome> deliveries, int culprit) {

        static Attempt allFailed(int size, DeliveryOutcome.Failed failure) {
            return new Attempt(Collections.nCopies(size, failure), size == 0 ? -1 : 0);
        }
    }

    /** The index of the first failure of {@code outcome}, in hand-over order; -1 when there is none. */
    private static int firstFailure(List<DeliveryOutcome> outcome) {
        for (int k = 0; k < outcome.size(); k++) {
            if (outcome.get(k) instanceof DeliveryOutcome.Failed) {
                return k;
            }
        }
        return -1;
    }

    /** {@code events} in one transaction: started, handed over and acknowledged, committed; else aborted. */
    private Attempt oneTransaction(List<OutgoingEvent> events) {
        if (closed) {
            return Attempt.allFailed(events.size(), DeliveryOutcome.unreachable("not sent: the sink is closed"));
        }
        try {
            if (!started) {
                producer.initTransactions();
                started = true;
            }
            producer.beginTransaction();
        } catch (RuntimeException e) {
            replaceProducerAfter(e);
            return Attempt.allFailed(events.size(), DeliveryOutcome.unreachable("not sent: the producer could not start a "
                    + "transaction: " + reasonOf(e)));
        }
        long handedOverFrom = System.nanoTime();
        var handedOver = handOver(events, handedOverFrom);
        var deliveries = awaitOutcomes(handedOver.outcomes(), handedOverFrom);
        int firstFailure = firstFailure(deliveries);
        if (firstFailure < 0) {
            try {
                producer.commitTransaction();
                return new Attempt(deliveries, -1);
            } catch (RuntimeException e) {
                abortAfter(e);
                var notCommitted = notCommitted(deliveries, "its commit failed: " + reasonOf(e));
                return new Attempt(notCommitted, firstFailure(notCommitted));
            }
        }
        abortAfter(null);
        return new Attempt(deliveries, handedOver.refusedOnTheSpot() >= 0 ? handedOver.refusedOnTheSpot()
                : firstFailure);
    }

    /** The round's records the broker acknowledged, failed as an outage: the transaction holding them was aborted. */
    private static List<DeliveryOutcome> notCommitted(List<DeliveryOutcome> deliveries, String why) {
        var failed = notCommitted(why);
        return deliveries.stream().map(delivery -> delivery instanceof DeliveryOutcome.Delivered ? failed : delivery).toList();
    }

    /** A record of a round whose transaction was aborted because {@code why}: an outage, no attempt used. */
    private static DeliveryOutcome.Failed notCommitted(String why) {
        return DeliveryOutcome.unreachable("not committed: the round's transaction was aborted because " + why);
    }

    /** Abort the open transaction; a producer that cannot (fenced, in a fatal state) is replaced. */
    private void abortAfter(RuntimeException cause) {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            if (cause != null) {
                e.addSuppressed(cause);
            }
            replaceProducerAfter(e);
        }
    }

    /**
     * The producer could not start, commit or abort a transaction: fenced by another instance's producer (which took
     * the transactional id over), or in a state it cannot leave. A new one replaces it; its {@code initTransactions}
     * comes with the next round. A timeout only (the broker away) keeps the producer, which tries again.
     */
    private void replaceProducerAfter(RuntimeException failure) {
        if (failure instanceof org.apache.kafka.common.errors.TimeoutException || failure instanceof InterruptException) {
            return; // the broker away, or the caller interrupted: the producer can try again
        }
        log.warn("Kafka sink: replacing the producer ({}): {}", failure instanceof ProducerFencedException
                ? "another instance's producer took the transactional id " + settings.transactionalId() + " over"
                : "it cannot go on", reasonOf(failure));
        try {
            producer.close(Duration.ZERO);
        } catch (RuntimeException e) {
            log.debug("Kafka sink: the replaced producer did not close cleanly: {}", reasonOf(e));
        }
        producer = new KafkaProducer<>(settings.producerConfig());
        started = false;
        producerListener.accept(producer);
    }

    /**
     * Hands every record to the producer, in order, each with a callback completing its outcome. Once the producer
     * refuses a record on the spot (too large, no metadata, buffer full), the transaction is in error: the later records
     * are not handed over ({@link #inTransaction} sends them again, without the refused one's key, D-35).
     * The callback, not the producer's future, carries the result: a future of a record whose batch the producer
     * split is a chain that {@code get} walks recursively.
     */
    private HandOver handOver(List<OutgoingEvent> events, long start) {
        long cutOff = start + settings.maxBlock().toNanos();
        var outcomes = new ArrayList<CompletableFuture<DeliveryOutcome>>(events.size());
        DeliveryOutcome.Failed refusedOnTheSpot = null;
        int refusedAt = -1;
        for (var event : events) {
            var outcome = new CompletableFuture<DeliveryOutcome>();
            outcomes.add(outcome);
            if (Thread.currentThread().isInterrupted()) {
                outcome.complete(DeliveryOutcome.unreachable("not sent: the sending thread was interrupted"));
            } else if (refusedOnTheSpot != null) {
                outcome.complete(DeliveryOutcome.unreachable("not sent: the producer refused an earlier record of the round ("
                        + refusedOnTheSpot.reason() + ")"));
            } else if (System.nanoTime() - cutOff >= 0) {
                outcome.complete(DeliveryOutcome.unreachable("not sent: the producer did not take the batch within "
                        + "msgx.kafka.max-block (" + settings.maxBlock().toMillis() + " ms)"
                        + "; check that the brokers are reachable and the topics exist"));
            } else {
                try {
                    producer.send(recordOf(event),
                            (metadata, failure) -> outcome.complete(failure == null
                                    ? DeliveryOutcome.delivered()
                                    : failureOf(failure)));
                } catch (RuntimeException e) {
                    outcome.complete(failureOf(e));
                }
                if (outcome.getNow(null) instanceof DeliveryOutcome.Failed refused) {
                    refusedOnTheSpot = refused;
                    refusedAt = outcomes.size() - 1;
                }
            }
        }
        return new HandOver(outcomes, refusedAt);
    }

    /** The outcome of each record handed over, and the index of the one the producer refused on the spot (or -1). */
    private record HandOver(List<CompletableFuture<DeliveryOutcome>> outcomes, int refusedOnTheSpot) {
    }

    private List<DeliveryOutcome> awaitOutcomes(List<CompletableFuture<DeliveryOutcome>> outcomes, long start) {
        long waitEnd = start + settings.acknowledgementBound().toNanos();
        var deliveries = new ArrayList<DeliveryOutcome>(outcomes.size());
        boolean interrupted = false;
        for (var outcome : outcomes) {
            DeliveryOutcome delivery = null;
            if (!interrupted) {
                try {
                    delivery = outcome.get(Math.max(0, waitEnd - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    delivery = DeliveryOutcome.unreachable("timed out after "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms without the broker's "
                            + "acknowledgement (bound: msgx.kafka.max-block + msgx.kafka.delivery-timeout + "
                            + KafkaSinkSettings.WAIT_MARGIN.toMillis() + " ms); the record may still be written "
                            + "(at least once)");
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    delivery = failureOf(e.getCause()); // outcomes never fail; kept for safety
                }
            }
            if (delivery == null) {
                delivery = outcome.getNow(DeliveryOutcome.unreachable("not acknowledged: the sending thread was interrupted "
                        + "while waiting; the record may still be written (at least once)"));
            }
            deliveries.add(delivery);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return List.copyOf(deliveries);
    }

    private void reportFailures(List<OutgoingEvent> events, List<DeliveryOutcome> deliveries) {
        int failedMsg = 0;
        int failedSchd = 0;
        int failedReference = 0;
        int firstFailed = -1;
        for (int i = 0; i < deliveries.size(); i++) {
            if (deliveries.get(i) instanceof DeliveryOutcome.Failed) {
                switch (events.get(i).stream()) {
                    case MSG -> failedMsg++;
                    case SCHD -> failedSchd++;
                    case REF -> failedReference++;
                }
                firstFailed = firstFailed < 0 ? i : firstFailed;
            }
        }
        if (firstFailed >= 0) {
            var first = events.get(firstFailed);
            log.warn("Kafka sink: {} of {} records not delivered ({} msg, {} schd, {} reference; brokers {}); first: key {}"
                            + " to {}: {}", failedMsg + failedSchd + failedReference, deliveries.size(), failedMsg,
                    failedSchd, failedReference, settings.bootstrapServers(),
                    first.key(), topicOf(first), ((DeliveryOutcome.Failed) deliveries.get(firstFailed)).reason());
        }
    }

    /** A key within its topic: the unit whose order the producer keeps. */
    private String keyOf(OutgoingEvent event) {
        return topicOf(event) + '/' + event.key();
    }

    /**
     * The Kafka record of {@code event}: its key, its value as UTF-8, its CloudEvents attributes as {@code ce_*} headers
     * and {@code content-type} (binary mode, written by the CloudEvents SDK), and msgexchange's {@code msgx_stateversion}
     * (flight records) and {@code msgx_msgid} (docs/consumers.md, "Headers"). A tombstone carries the same headers.
     */
    ProducerRecord<String, byte[]> recordOf(OutgoingEvent event) {
        var attributes = event.attributes();
        var cloudEvent = CloudEventBuilder.v1()
                .withId(attributes.id())
                .withSource(eventSource)
                .withType(attributes.type())
                .withSubject(attributes.subject())
                .withTime(attributes.time().atOffset(ZoneOffset.UTC))
                .withDataContentType(CONTENT_TYPE);
        if (event.value() != null) {
            cloudEvent.withData(event.value().getBytes(StandardCharsets.UTF_8));
        }
        var record = KafkaMessageFactory.createWriter(topicOf(event), event.key()).writeBinary(cloudEvent.build());
        if (attributes.stateVersion() != null) {
            record.headers().add(STATE_VERSION_HEADER, Long.toString(attributes.stateVersion()).getBytes(StandardCharsets.UTF_8));
        }
        record.headers().add(MSG_ID_HEADER, Long.toString(attributes.msgId()).getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private String topicOf(OutgoingEvent event) {
        return switch (event.stream()) {
            case MSG -> settings.msgTopic();
            case SCHD -> settings.schdTopic();
            case REF -> settings.referenceTopic();
        };
    }

    /**
     * A producer's failure as a {@link DeliveryOutcome.Failed}: an outage when Kafka says trying again may succeed (a
     * {@link RetriableException}, which includes its {@code TimeoutException}: the broker away, no leader, too few
     * in-sync replicas, metadata not available — and a topic missing, which the producer cannot tell from one not yet
     * known), or when the sink cannot send at all (interrupted, closed, fenced by another instance's producer, its round
     * aborted); a refusal of the record otherwise.
     */
    static DeliveryOutcome.Failed failureOf(Throwable failure) {
        var reason = reasonOf(failure);
        return failure instanceof RetriableException || failure instanceof InterruptException
                || failure instanceof IllegalStateException // the producer closed: the sink, not the record
                || failure instanceof ProducerFencedException || failure instanceof InvalidProducerEpochException
                || failure instanceof TransactionAbortedException // another instance's producer, or an aborted round
                ? DeliveryOutcome.unreachable(reason) : DeliveryOutcome.refused(reason);
    }

    static String reasonOf(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        var message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
