package io.msgx.tools.soak;

import io.msgx.adapter.kafka.KafkaTestBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the consumers of the two flight topics have received so far, read incrementally as a consumer team would: per
 * FLID the last {@code stateVersion} of each topic, the compacted {@code schd} (a tombstone removes the key), and every
 * record whose version went back. Not thread-safe; {@link #close} it.
 */
final class TopicLedger implements AutoCloseable {

    private static final Pattern VERSION = Pattern.compile("\"stateVersion\":(\\d+)");

    private final KafkaConsumer<String, String> consumer;
    private final String msgTopic;
    private final Map<String, Long> lastMsgVersion = new HashMap<>();
    private final Map<String, Long> lastSchdVersion = new HashMap<>();
    /** The compacted schd topic: FLID → version of its last value; a tombstoned FLID is absent. */
    private final Map<String, Long> compactedSchd = new HashMap<>();
    private final List<String> versionsBack = new ArrayList<>();
    private long records;

    TopicLedger(String msgTopic, String schdTopic) {
        this.msgTopic = msgTopic;
        this.consumer = new KafkaConsumer<>(Map.<String, Object>of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), new StringDeserializer());
        var partitions = new ArrayList<TopicPartition>();
        for (var topic : List.of(msgTopic, schdTopic)) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Read every record the two topics hold now; fails when their end is not reached within a minute. */
    void catchUp() {
        var end = consumer.endOffsets(consumer.assignment(), Duration.ofSeconds(30));
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the flight topics were not read up to " + end + " within a minute");
            }
            for (var record : consumer.poll(Duration.ofMillis(200))) {
                records++;
                var flid = record.key();
                if (record.topic().equals(msgTopic)) {
                    follow(lastMsgVersion, "msg", flid, versionOf(record.value()));
                } else if (record.value() == null) {
                    compactedSchd.remove(flid);
                } else {
                    long version = versionOf(record.value());
                    follow(lastSchdVersion, "schd", flid, version);
                    compactedSchd.put(flid, version);
                }
            }
        }
    }

    /** At-least-once delivery may repeat a version; a smaller one is a version going back. */
    private void follow(Map<String, Long> last, String topic, String flid, long version) {
        var before = last.get(flid);
        if (before != null && version < before) {
            versionsBack.add(topic + " FLID " + flid + ": " + version + " after " + before);
        }
        last.merge(flid, version, Math::max);
    }

    private static long versionOf(String json) {
        var matcher = VERSION.matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("a flight record without stateVersion: " + json);
        }
        return Long.parseLong(matcher.group(1));
    }

    /** The compacted schd topic: every FLID whose last record is a value, with its version. */
    Map<String, Long> compactedSchd() {
        return Map.copyOf(compactedSchd);
    }

    /** The highest version the msg topic carried for {@code flid}, or null. */
    Long lastNotified(String flid) {
        return lastMsgVersion.get(flid);
    }

    /** Every record whose version was smaller than one received before for its FLID on its topic. */
    List<String> versionsBack() {
        return List.copyOf(versionsBack);
    }

    long records() {
        return records;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
