package io.msgx.example.consumer;

import io.msgx.adapter.kafka.KafkaTestBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The test's own look at the topics on the test broker: every record with its headers (read committed, from the
 * beginning to the end as it is now), and the same records produced again, as a crash of the pipeline repeats them.
 */
final class PublishedRecords {

    private PublishedRecords() {
    }

    /** The end offsets of {@code topic}'s partitions now (read committed). */
    static Map<TopicPartition, Long> endOffsets(String topic) {
        try (var consumer = consumer()) {
            return new HashMap<>(consumer.endOffsets(partitions(consumer, topic), Duration.ofSeconds(30)));
        }
    }

    /** Every record of {@code topic}, headers included, by partition, then offset. */
    static List<ConsumerRecord<String, String>> readAll(String topic) {
        try (var consumer = consumer()) {
            var partitions = partitions(consumer, topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            var records = new ArrayList<ConsumerRecord<String, String>>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("could not read " + topic + " up to " + end);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            records.sort(Comparator.<ConsumerRecord<String, String>>comparingInt(ConsumerRecord::partition)
                    .thenComparingLong(ConsumerRecord::offset));
            return records;
        }
    }

    /** Produces {@code records} again, in their order, each to its own partition with its key, value and headers. */
    static void produceAgain(List<ConsumerRecord<String, String>> records) throws Exception {
        var config = Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all");
        try (var producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            var sent = new ArrayList<java.util.concurrent.Future<?>>();
            for (var record : records) {
                sent.add(producer.send(new ProducerRecord<>(record.topic(), record.partition(), record.key(),
                        record.value(), record.headers())));
            }
            for (var future : sent) {
                future.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static KafkaConsumer<String, String> consumer() {
        var config = Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, String> consumer, String topic) {
        return consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
    }
}
