package io.msgx.example.consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the two flight topics into a {@link FlightBoard} and a {@link ChangeLog}, as docs/consumers.md says a
 * consumer builds and keeps the current state ("Ordering, repeats and deduplication", "Current state"):
 *
 * <ol>
 * <li>{@link #bootstrap}: read {@code schd} from the beginning up to its end offsets, taken at the start. A compacted
 * topic read to its end holds the latest value of every flight; flights that end in a tombstone are not on the
 * board.</li>
 * <li>{@link #pollOnce}, again and again: {@code msg} and {@code schd} together, from where the start left them.</li>
 * </ol>
 *
 * <p>Read with {@code isolation.level=read_committed}: msgexchange sends each dispatch round as one Kafka transaction,
 * and a round aborted and sent again is then seen once. The repeats that remain (at least once delivery) are dropped by
 * the dedup rule, in the board and in the log.
 *
 * <p>{@code msg} is read from its end as it was at the start: the board, built from {@code schd}, already holds what
 * the earlier notifications said. There is no order between the topics, so a flight's state may be applied before or
 * after its notification; each topic is deduplicated on its own. Partitions are assigned by hand (no consumer group,
 * no committed offsets): the board lives in memory and is rebuilt from {@code schd} at every start.
 */
public final class FlightFollower implements AutoCloseable {

    /** One change applied, as the example prints it. */
    public record Applied(String topic, String flid, long stateVersion, String what) {
        @Override
        public String toString() {
            return topic + " " + flid + " v" + stateVersion + ": " + what;
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(FlightFollower.class);

    private final KafkaConsumer<String, String> consumer;
    private final String msgTopic;
    private final String schdTopic;
    private final FlightBoard board = new FlightBoard();
    private final ChangeLog changes = new ChangeLog();

    /** The consumer settings the contract asks for, on {@code bootstrapServers}. */
    public static Map<String, Object> consumerConfig(String bootstrapServers) {
        var config = new HashMap<String, Object>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "msgx-consumer-example");
        return config;
    }

    /** Follows {@code msgTopic} and {@code schdTopic} with {@code config} (see {@link #consumerConfig}). */
    public FlightFollower(Map<String, Object> config, String msgTopic, String schdTopic) {
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
        this.msgTopic = msgTopic;
        this.schdTopic = schdTopic;
    }

    /**
     * Builds the board from {@code schd} (step 1 above) and places {@code msg} at its end; returns the number of
     * {@code schd} records read.
     *
     * @throws IllegalStateException if a topic does not exist, or {@code schd} is not read to its end within
     *     {@code timeout}
     */
    public long bootstrap(Duration timeout) {
        var msg = partitions(msgTopic, timeout);
        var schd = partitions(schdTopic, timeout);
        var all = new ArrayList<>(msg);
        all.addAll(schd);
        consumer.assign(all);
        consumer.endOffsets(msg, timeout).forEach(consumer::seek);
        consumer.seekToBeginning(schd);
        // Read committed: the end offsets are the last stable offsets, the end of what committed rounds wrote.
        var schdEnd = consumer.endOffsets(schd, timeout);
        consumer.pause(msg);
        long read = 0;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(schdEnd)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("could not read " + schdTopic + " up to " + schdEnd + " within "
                        + timeout + "; the board has " + board.versions().size() + " flights so far");
            }
            for (var record : consumer.poll(Duration.ofMillis(200))) {
                apply(record);
                read++;
            }
        }
        consumer.resume(msg);
        return read;
    }

    /** Step 2 above, once: what one poll of {@code msg} and {@code schd} brought, applied; returns what changed. */
    public List<Applied> pollOnce(Duration timeout) {
        var applied = new ArrayList<Applied>();
        for (var record : consumer.poll(timeout)) {
            var change = apply(record);
            if (change != null) {
                applied.add(change);
            }
        }
        return applied;
    }

    /** Whether every assigned partition has been read up to its end offset as it is now (asks the broker). */
    public boolean caughtUp() {
        return reached(consumer.endOffsets(consumer.assignment()));
    }

    /** The current state of the flights. */
    public FlightBoard board() {
        return board;
    }

    /** The last notification of each flight and the counters of how they arrived. */
    public ChangeLog changes() {
        return changes;
    }

    /** Makes a {@link #pollOnce} in progress (in another thread) end with a {@code WakeupException}. */
    public void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        consumer.close();
    }

    /** One record of either topic; null when the dedup rule dropped it, or it is no value of the contract. */
    private Applied apply(ConsumerRecord<String, String> record) {
        try {
            return record.topic().equals(schdTopic) ? applyState(record) : applyNotification(record);
        } catch (IllegalArgumentException e) {
            // Skipped and logged, so that one bad record does not stop the board.
            LOG.warn("Skipped: {}", e.getMessage());
            return null;
        }
    }

    /** A {@code schd} record: a full state, or a tombstone; null when the dedup rule dropped it. */
    private Applied applyState(ConsumerRecord<String, String> record) {
        var value = FlightRecords.value(record);
        if (value == null) {
            long version = FlightRecords.stateVersionHeader(record);
            if (board.applyDeletion(record.key(), version) == FlightBoard.Outcome.DROPPED) {
                return null;
            }
            return new Applied(record.topic(), record.key(), version, "deleted");
        }
        long version = FlightRecords.stateVersion(value);
        if (board.applyState(record.key(), version, value) == FlightBoard.Outcome.DROPPED) {
            return null;
        }
        return new Applied(record.topic(), record.key(), version, "state");
    }

    /** A {@code msg} record: a change notification; null when the dedup rule dropped it. */
    private Applied applyNotification(ConsumerRecord<String, String> record) {
        var value = FlightRecords.value(record);
        if (value == null) {
            throw new IllegalArgumentException("a tombstone on " + record.topic() + " (key " + record.key()
                    + "), which never carries one");
        }
        var change = FlightRecords.change(record.key(), value);
        var outcome = changes.apply(change);
        if (outcome == ChangeLog.Outcome.DROPPED) {
            return null;
        }
        return new Applied(record.topic(), change.flid(), change.stateVersion(), change.change() + " "
                + change.changed() + " cause " + change.cause()
                + (outcome == ChangeLog.Outcome.APPLIED_AFTER_GAP ? " (after a gap: read the flight from schd)" : ""));
    }

    private List<TopicPartition> partitions(String topic, Duration timeout) {
        var infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist on the cluster; check the topic names"
                    + " (msgexchange's msgx.kafka.topic.msg and .schd)");
        }
        return infos.stream().map(info -> new TopicPartition(topic, info.partition())).toList();
    }

    private boolean reached(Map<TopicPartition, Long> endOffsets) {
        for (var end : endOffsets.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }
}
