package io.msgx.tools.bench;

import io.msgx.adapter.kafka.KafkaSinkSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Raw producer throughput with the sink's own producer configuration ({@link KafkaSinkSettings#producerConfig()}:
 * idempotent, {@code acks=all}, the same linger and timeouts; without its transactions), to two bench topics shaped like the pipeline's
 * ({@code <msg topic>.bench}, {@code <schd topic>.bench} compacted, the same partition count): the given records
 * replayed round-robin until {@code count} were sent, all asynchronously, timed from the first send to the last
 * acknowledgement. Values go as UTF-8 bytes, as the sink sends them, but without the sink's CloudEvents headers
 * (issue 35): the baseline is the bare producer, and the headers' cost counts against the dispatcher.
 */
final class ProducerBaseline {

    private final KafkaSinkSettings settings;
    private final int partitions;
    private final short replication;

    ProducerBaseline(KafkaSinkSettings settings, int partitions, short replication) {
        this.settings = settings.withClientId(settings.clientId() + "-bench")
                .withTopics(settings.msgTopic() + ".bench", settings.schdTopic() + ".bench");
        this.partitions = partitions;
        this.replication = replication;
    }

    record Result(long records, long acknowledged, long failed, long nanos, String msgTopic, String schdTopic,
                  String firstFailure) {
        double recordsPerSecond() {
            return nanos == 0 ? 0 : acknowledged / (nanos / 1e9);
        }
    }

    /** The run with the median rate (of an even number, the slower of the two middle ones). */
    static Result median(List<Result> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no producer run to take the median of");
        }
        var sorted = runs.stream().sorted(Comparator.comparingDouble(Result::recordsPerSecond)).toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    Result measure(List<OutboxSample.Event> records, long count, Duration timeout) throws InterruptedException {
        if (records.isEmpty() || count <= 0) {
            return new Result(0, 0, 0, 0, settings.msgTopic(), settings.schdTopic(), "no records to send");
        }
        ensureTopics();
        var acknowledged = new AtomicLong();
        var failed = new AtomicLong();
        var firstFailure = new AtomicReference<String>();
        var lastAck = new AtomicLong();
        try (var producer = new KafkaProducer<String, byte[]>(withoutTransactions(settings.producerConfig()))) {
            warmUp(producer, records.get(0));
            var done = new CountDownLatch(1);
            var outstanding = new AtomicLong(count);
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                var event = records.get((int) (i % records.size()));
                producer.send(new ProducerRecord<>(event.schd() ? settings.schdTopic() : settings.msgTopic(),
                        event.key(), event.payload().getBytes(StandardCharsets.UTF_8)), (metadata, failure) -> {
                    if (failure == null) {
                        acknowledged.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, failure.toString());
                    }
                    lastAck.set(System.nanoTime());
                    if (outstanding.decrementAndGet() == 0) {
                        done.countDown();
                    }
                });
            }
            producer.flush();
            done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new Result(count, acknowledged.get(), failed.get(), Math.max(0, lastAck.get() - start),
                    settings.msgTopic(), settings.schdTopic(), firstFailure.get());
        }
    }

    /**
     * The sink's configuration less its transactions (D-109): the baseline is the producer's own ceiling, so the cost of
     * a transaction per round shows in the dispatcher's share of it.
     */
    private static Map<String, Object> withoutTransactions(Map<String, Object> config) {
        var plain = new HashMap<>(config);
        plain.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        plain.remove(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        return plain;
    }

    private void warmUp(KafkaProducer<String, byte[]> producer, OutboxSample.Event event) throws InterruptedException {
        try {
            producer.send(new ProducerRecord<>(settings.msgTopic(), event.key(), event.payload().getBytes(StandardCharsets.UTF_8)))
                    .get(settings.deliveryTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the producer baseline could not send to " + settings.msgTopic() + " on "
                    + settings.bootstrapServers() + ": " + e, e);
        }
    }

    private void ensureTopics() throws InterruptedException {
        try (var admin = Admin.create(settings.connectionConfig())) {
            var wanted = new ArrayList<NewTopic>();
            wanted.add(new NewTopic(settings.msgTopic(), partitions, replication));
            wanted.add(new NewTopic(settings.schdTopic(), partitions, replication)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
            for (var topic : wanted) {
                try {
                    admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("could not create bench topic " + topic.name() + ": "
                                + e.getCause(), e);
                    }
                } catch (TimeoutException e) {
                    throw new IllegalStateException("creating bench topic " + topic.name() + " timed out", e);
                }
            }
        }
    }
}
