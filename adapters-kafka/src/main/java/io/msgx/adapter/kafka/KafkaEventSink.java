package io.msgx.adapter.kafka;

import io.msgx.pipeline.delivery.Delivery;
import io.msgx.pipeline.delivery.OutgoingEvent;
import io.msgx.pipeline.port.EventSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The event sink on one idempotent Kafka producer ({@code enable.idempotence=true}, {@code acks=all}, at most 5
 * requests in flight per connection, String keys and values in UTF-8). Each event goes to the topic of its stream
 * ({@link KafkaSinkSettings#msgTopic()} or {@link KafkaSinkSettings#schdTopic()}), keyed by its FLID, so all records
 * of one FLID land on one partition; a null value is sent as a tombstone.
 *
 * <p><b>Guarantees of {@link #send}.</b>
 * <ul>
 *   <li>One {@link Delivery} per event, in the order of the events. {@link Delivery.Delivered} means the broker
 *       acknowledged the record with {@code acks=all}.</li>
 *   <li>A record's failure is its {@link Delivery.Failed} (the reason names the exception and its message, or
 *       the wait that ran out), never an exception; the other records of the batch are unaffected, except the
 *       later records of the same key after a synchronous refusal by the producer (metadata not available, record
 *       too large, buffer full): those fail too, unsent, so that nothing overtakes the refused record.</li>
 *   <li>Bounded by {@link KafkaSinkSettings#sendBound()} = {@code max-block + delivery-timeout + 1 s} (41 s with
 *       the defaults) from the call. Records are handed to the producer only during the first {@code max-block};
 *       the rest fail without being sent. One hand-over blocks at most {@code max-block} (metadata, buffer), so the
 *       hand-over ends by {@code 2 x max-block}, within the bound as {@code max-block <= delivery-timeout}. The
 *       call then waits for the acknowledgements up to the bound; whatever is still open then is
 *       {@code Failed("timed out after ...")}.</li>
 *   <li>Within a partition the producer keeps the hand-over order, also across retries (idempotence). A record
 *       reported {@code Failed} because the wait ran out may still be written later by this same producer; as it
 *       precedes anything handed over afterwards, a retry of it cannot overtake it. Delivery is at least once.</li>
 * </ul>
 * <b>Whose fault</b> (D-66). Each {@code Failed} says whether it is an outage ({@link Delivery#unreachable}: the broker
 * did not take or answer the record in time — Kafka's {@code TimeoutException}, any other {@link RetriableException}
 * such as a lost connection, no leader or too few in-sync replicas, the hand-over cut-off, the wait that ran out, an
 * interrupt) or a refusal of this record ({@link Delivery#refused}: too large, not authorised, not serialisable, an
 * invalid topic — every other exception). Only refusals use one of the event's delivery attempts. A record held back
 * because an earlier one of its key was refused in the batch fails as that one did.
 *
 * <p>One WARN line is logged per batch with failures (counts and the first reason). Thread-safe: the producer is
 * shared, each call keeps its own state.
 *
 * <p><b>Record size.</b> A record over the producer's {@code max.request.size} (default 1 MiB, settable through
 * {@code msgx.kafka.producer.max.request.size}) is refused by the producer and fails alone. Keep that value, and
 * {@code batch.size}, at or below the topics' {@code max.message.bytes}: a batch the <em>broker</em> refuses as too
 * large makes the producer split it, and kafka-clients 4.3.1 can split a too-large record together with a small
 * neighbour forever (KAFKA-8202/8350), delaying that partition until the delivery timeout.
 * {@link KafkaTopics#ensure} checks this for the topics it sees.
 */
public final class KafkaEventSink implements EventSink, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaEventSink.class);

    private final KafkaSinkSettings settings;
    private final Producer<String, String> producer;

    /** Creates the producer; it connects lazily, on the first record. */
    public KafkaEventSink(KafkaSinkSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.producer = new KafkaProducer<>(settings.producerConfig());
    }

    public KafkaSinkSettings settings() {
        return settings;
    }

    /**
     * The producer, for its client metrics only (the runner binds Micrometer's {@code KafkaClientMetrics} to it); its
     * wildcard type keeps records out: events go through {@link #send}.
     */
    public Producer<?, ?> producerForMetrics() {
        return producer;
    }

    @Override
    public List<Delivery> send(List<OutgoingEvent> events) {
        Objects.requireNonNull(events, "events");
        if (events.isEmpty()) {
            return List.of();
        }
        long start = System.nanoTime();
        var outcomes = handOver(events, start);
        var deliveries = awaitOutcomes(outcomes, start);
        reportFailures(events, deliveries);
        return deliveries;
    }

    /**
     * Waits up to {@code max-block} for records still in the producer, then drops them (they are still pending in
     * the outbox and go out again).
     */
    @Override
    public void close() {
        producer.close(settings.maxBlock());
    }

    /**
     * Hands every record to the producer, in order, each with a callback completing its outcome. Once the producer
     * refuses a record on the spot (too large, no metadata, buffer full), the later records of the same key in this
     * batch are failed without being handed over, so none of them is written ahead of the refused one (D-35).
     * The callback, not the producer's future, carries the result: a future of a record whose batch the producer
     * split is a chain that {@code get} walks recursively.
     */
    private List<CompletableFuture<Delivery>> handOver(List<OutgoingEvent> events, long start) {
        long cutOff = start + settings.maxBlock().toNanos();
        var outcomes = new ArrayList<CompletableFuture<Delivery>>(events.size());
        var refusedKeys = new HashMap<String, Delivery.Failed>();
        String firstRefusal = null;
        for (var event : events) {
            var outcome = new CompletableFuture<Delivery>();
            outcomes.add(outcome);
            if (Thread.currentThread().isInterrupted()) {
                outcome.complete(Delivery.unreachable("not sent: the sending thread was interrupted"));
            } else if (System.nanoTime() - cutOff >= 0) {
                outcome.complete(Delivery.unreachable("not sent: the producer did not take the batch within "
                        + "msgx.kafka.max-block (" + settings.maxBlock().toMillis() + " ms)"
                        + (firstRefusal == null ? "" : "; first refusal: " + firstRefusal)
                        + "; check that the brokers are reachable and the topics exist"));
            } else if (refusedKeys.containsKey(keyOf(event))) {
                outcome.complete(new Delivery.Failed("not sent: the producer refused an earlier record of FLID "
                        + event.key() + " in this batch, and a later one must not overtake it",
                        refusedKeys.get(keyOf(event)).outage()));
            } else {
                try {
                    producer.send(new ProducerRecord<>(topicOf(event), event.key(), event.value()),
                            (metadata, failure) -> outcome.complete(failure == null
                                    ? Delivery.delivered()
                                    : failureOf(failure)));
                } catch (RuntimeException e) {
                    outcome.complete(failureOf(e));
                }
                if (outcome.getNow(null) instanceof Delivery.Failed refused) {
                    refusedKeys.put(keyOf(event), refused);
                    firstRefusal = firstRefusal == null ? refused.reason() : firstRefusal;
                }
            }
        }
        return outcomes;
    }

    private List<Delivery> awaitOutcomes(List<CompletableFuture<Delivery>> outcomes, long start) {
        long waitEnd = start + settings.sendBound().toNanos();
        var deliveries = new ArrayList<Delivery>(outcomes.size());
        boolean interrupted = false;
        for (var outcome : outcomes) {
            Delivery delivery = null;
            if (!interrupted) {
                try {
                    delivery = outcome.get(Math.max(0, waitEnd - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    delivery = Delivery.unreachable("timed out after "
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
                delivery = outcome.getNow(Delivery.unreachable("not acknowledged: the sending thread was interrupted "
                        + "while waiting; the record may still be written (at least once)"));
            }
            deliveries.add(delivery);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return List.copyOf(deliveries);
    }

    private void reportFailures(List<OutgoingEvent> events, List<Delivery> deliveries) {
        int failedMsg = 0;
        int failedSchd = 0;
        int failedReference = 0;
        int firstFailed = -1;
        for (int i = 0; i < deliveries.size(); i++) {
            if (deliveries.get(i) instanceof Delivery.Failed) {
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
                    first.key(), topicOf(first), ((Delivery.Failed) deliveries.get(firstFailed)).reason());
        }
    }

    /** A key within its topic: the unit whose order the producer keeps. */
    private String keyOf(OutgoingEvent event) {
        return topicOf(event) + '/' + event.key();
    }

    private String topicOf(OutgoingEvent event) {
        return switch (event.stream()) {
            case MSG -> settings.msgTopic();
            case SCHD -> settings.schdTopic();
            case REF -> settings.referenceTopic();
        };
    }

    /**
     * A producer's failure as a {@link Delivery.Failed}: an outage when Kafka says trying again may succeed (a
     * {@link RetriableException}, which includes its {@code TimeoutException}: the broker away, no leader, too few
     * in-sync replicas, metadata not available — and a topic missing, which the producer cannot tell from one not yet
     * known), or when the sink cannot send at all (interrupted, closed); a refusal of the record otherwise.
     */
    static Delivery.Failed failureOf(Throwable failure) {
        var reason = reasonOf(failure);
        return failure instanceof RetriableException || failure instanceof InterruptException
                || failure instanceof IllegalStateException // the producer closed: the sink, not the record
                ? Delivery.unreachable(reason) : Delivery.refused(reason);
    }

    static String reasonOf(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        var message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
