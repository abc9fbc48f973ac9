package io.msgx.adapter.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real, in-process KRaft broker (combined broker + controller) per test JVM: started on first use, stopped by
 * a JVM shutdown hook, its log directory deleted then. Tests share it, so each test uses its own topic names
 * ({@link #uniqueTopic}) and never sees another test's records. Topics are not auto-created: create them with
 * {@link #createTopics} or {@link KafkaTopics#ensure}.
 *
 * <p>This is the only class that touches Kafka's internal test kit ({@code KafkaClusterTestKit}, from
 * {@code kafka-test-common-runtime}); a Kafka upgrade that changes the kit changes this file only. It ships in this
 * module's test-jar for the end-to-end tests.
 *
 * <p>Memory is kept modest for a shared two-core machine: few broker threads, a 16 MB log-cleaner buffer instead
 * of 128 MB, single-partition internal topics.
 */
public final class KafkaTestBroker {

    /** One record as read back: partition and offset tell the order the broker stored it in. */
    public record ReadRecord(String key, String value, int partition, long offset, Map<String, String> headers) {
    }

    private static final AtomicInteger TOPIC_COUNTER = new AtomicInteger();

    /** How long a read-committed read waits for the markers of committed transactions ({@code settledEndOffsets}). */
    private static final Duration MARKER_WAIT = Duration.ofSeconds(3);

    private KafkaTestBroker() {
    }

    /** The broker's {@code host:port}, starting it on first use (about 2 s). */
    public static String bootstrapServers() {
        return Holder.STARTED.cluster().bootstrapServers();
    }

    /**
     * Stops the broker (the KRaft controller keeps running) for a test of a broker outage: clients get no answer
     * on {@link #bootstrapServers()} until {@link #startBroker()}. Every other test of the JVM shares this broker, so
     * the test that stops it must start it again (in a {@code finally}); tests of one JVM run one at a time.
     */
    public static void stopBroker() {
        Holder.STARTED.cluster().brokers().values().forEach(kafka.server.BrokerServer::shutdown);
    }

    /**
     * Starts the broker stopped by {@link #stopBroker()} again, on the same port and the same log directory (the
     * test kit rebinds the port it reserved), and waits until it is ready: every record it acknowledged is still there.
     */
    public static void startBroker() {
        var cluster = Holder.STARTED.cluster();
        cluster.brokers().values().forEach(kafka.server.BrokerServer::startup);
        try {
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            throw new IllegalStateException("the test broker did not become ready after a restart: " + e, e);
        }
    }

    /** A topic name no other test of this JVM uses: {@code prefix-<n>-<random>}. */
    public static String uniqueTopic(String prefix) {
        return prefix + "-" + TOPIC_COUNTER.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates the topics (replication 1, delete policy) and waits until they exist. */
    public static void createTopics(int partitions, String... topics) {
        createTopics(partitions, Map.of(), topics);
    }

    /** Creates compacted topics ({@code cleanup.policy=compact}), as the schd topic is. */
    public static void createCompactedTopics(int partitions, String... topics) {
        createTopics(partitions, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT), topics);
    }

    /** Creates the topics with the given topic-level configuration and waits until they exist. */
    public static void createTopics(int partitions, Map<String, String> config, String... topics) {
        var newTopics = new ArrayList<NewTopic>();
        for (var topic : topics) {
            newTopics.add(new NewTopic(topic, partitions, (short) 1).configs(config));
        }
        try (var admin = admin()) {
            admin.createTopics(newTopics).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create topics " + List.of(topics) + " on the test broker", e);
        }
    }

    /** An admin client for the test broker; close it. */
    public static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** {@link #readAll(String, Duration)} within 30 s. */
    public static List<ReadRecord> readAll(String topic) {
        return readAll(topic, Duration.ofSeconds(30));
    }

    /**
     * Reads the topic as consumers are told to ({@code isolation.level=read_committed}: what committed rounds wrote, D-109)
     * from the beginning up to the end offsets it has when this is called, and returns the records ordered by
     * partition, then offset (so per key in the order the broker stored them).
     *
     * @throws IllegalStateException if the end is not reached within the timeout
     */
    public static List<ReadRecord> readAll(String topic, Duration timeout) {
        return read(topic, timeout, "read_committed");
    }

    /**
     * {@link #readAll(String, Duration)} as a consumer reading with {@code isolation.level=read_uncommitted}: every
     * record the broker appended, those of aborted rounds too.
     */
    public static List<ReadRecord> readAllUncommitted(String topic) {
        return read(topic, Duration.ofSeconds(30), "read_uncommitted");
    }

    private static List<ReadRecord> read(String topic, Duration timeout, String isolation) {
        var config = Map.<String, Object>of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            var partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var endOffsets = new HashMap<>("read_committed".equals(isolation)
                    ? settledEndOffsets(consumer, partitions, timeout) : consumer.endOffsets(partitions, timeout));
            var records = new ArrayList<ReadRecord>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reachedEnd(consumer, endOffsets)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("could not read " + topic + " up to " + endOffsets + " within "
                            + timeout);
                }
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    var partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() < endOffsets.get(partition)) {
                        var headers = new LinkedHashMap<String, String>();
                        record.headers().forEach(header -> headers.put(header.key(),
                                header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8)));
                        records.add(new ReadRecord(record.key(), record.value(), record.partition(), record.offset(),
                                java.util.Collections.unmodifiableMap(headers)));
                    }
                }
            }
            records.sort(Comparator.comparingInt(ReadRecord::partition).thenComparingLong(ReadRecord::offset));
            return records;
        }
    }

    /**
     * The end a read-committed consumer can reach, once the broker has written the markers of the transactions that
     * already committed. A producer's {@code commitTransaction} returns when the coordinator has logged the commit; the
     * markers reach the partitions a moment later, and until then the last stable offset stays before the round's
     * records (a reader that takes its end offsets at once misses them). So wait, up to {@link #MARKER_WAIT}, for the
     * last stable offset to reach the log's end; a transaction still open (a frozen producer) keeps it short of it, and
     * the read then ends where it stands.
     */
    private static Map<TopicPartition, Long> settledEndOffsets(KafkaConsumer<String, String> consumer,
                                                               List<TopicPartition> partitions, Duration timeout) {
        var stable = new HashMap<>(consumer.endOffsets(partitions, timeout));
        try (var admin = admin()) {
            var latest = new HashMap<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec>();
            partitions.forEach(partition -> latest.put(partition, org.apache.kafka.clients.admin.OffsetSpec.latest()));
            var logEnd = admin.listOffsets(latest, new org.apache.kafka.clients.admin.ListOffsetsOptions(
                    org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            long until = System.nanoTime() + MARKER_WAIT.toNanos();
            while (partitions.stream().anyMatch(p -> stable.get(p) < logEnd.get(p).offset())
                    && System.nanoTime() - until < 0) {
                Thread.sleep(20);
                stable.putAll(consumer.endOffsets(partitions, timeout));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not list the end offsets of " + partitions, e);
        }
        return stable;
    }

    private static boolean reachedEnd(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> endOffsets) {
        for (var end : endOffsets.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The test kit's builder with this class's settings: one combined node, single-partition internal topics, few
     * threads; {@code extra} added (and winning over the kit's own listener settings, which it sets only if absent).
     */
    private static KafkaClusterTestKit.Builder builder(Map<String, String> extra) {
        var nodes = new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        var builder = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("auto.create.topics.enable", "false")
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "1")
                .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("num.network.threads", "2")
                .setConfigProp("num.io.threads", "2")
                .setConfigProp("background.threads", "2")
                .setConfigProp("log.cleaner.threads", "1")
                .setConfigProp("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        extra.forEach(builder::setConfigProp);
        return builder;
    }

    /**
     * Starts a broker of its own (not the shared one) that also listens with TLS: listener {@code SSL} on
     * {@code localhost}, its key and certificate from {@code certificates.serverStore()}, no client certificate asked
     * for. The kit's own listener (plain text) stays, for creating topics. Close it when done (about 2 s to start).
     * The kit itself supports only plain-text and SASL listeners, so the TLS listener is added beside them.
     */
    public static TlsBroker startTls(TestCertificates certificates) {
        var extra = new LinkedHashMap<String, String>();
        extra.put("listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0,SSL://localhost:0");
        extra.put("listener.security.protocol.map", "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,SSL:SSL");
        extra.put("ssl.keystore.type", "PKCS12");
        extra.put("ssl.keystore.location", certificates.serverStore().toString());
        extra.put("ssl.keystore.password", certificates.password());
        extra.put("ssl.key.password", certificates.password());
        extra.put("ssl.client.auth", "none");
        // as for the shared broker (Holder): a broker must not halt or exit the test JVM
        org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) ->
                System.err.println("Kafka TLS test broker asked to halt (" + code + "): " + message));
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) ->
                System.err.println("Kafka TLS test broker asked to exit (" + code + "): " + message));
        try {
            var cluster = builder(extra).build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            var broker = cluster.brokers().values().iterator().next();
            int sslPort = broker.boundPort(new org.apache.kafka.common.network.ListenerName("SSL"));
            return new TlsBroker(cluster, "localhost:" + sslPort, cluster.bootstrapServers());
        } catch (Exception e) {
            throw new IllegalStateException("could not start the in-process Kafka test broker with a TLS listener: " + e, e);
        }
    }

    /**
     * A broker of its own with a TLS listener ({@link #startTls}).
     *
     * @param sslBootstrapServers       {@code localhost:<port>} of the TLS listener
     * @param plaintextBootstrapServers the kit's plain-text listener, for the test's own set-up
     */
    public record TlsBroker(KafkaClusterTestKit cluster, String sslBootstrapServers, String plaintextBootstrapServers)
            implements AutoCloseable {

        /** Creates the topics (replication 1) through the plain-text listener and waits until they exist. */
        public void createTopics(String... topics) {
            var newTopics = new ArrayList<NewTopic>();
            for (var topic : topics) {
                newTopics.add(new NewTopic(topic, 1, (short) 1));
            }
            try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plaintextBootstrapServers))) {
                admin.createTopics(newTopics).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("could not create topics " + List.of(topics) + " on the TLS test broker", e);
            }
        }

        /** The values of {@code topic} read committed from the beginning through {@code client} (TLS settings), up to {@code count}. */
        public List<String> readValues(String topic, int count, Map<String, Object> client) {
            var config = new HashMap<String, Object>(client);
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            var values = new ArrayList<String>();
            try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
                var partition = new TopicPartition(topic, 0);
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (values.size() < count && System.nanoTime() - deadline < 0) {
                    consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
                }
            }
            return values;
        }

        @Override
        public void close() {
            try {
                cluster.close();
            } catch (Exception e) {
                System.err.println("Kafka TLS test broker did not stop cleanly: " + e);
            }
        }
    }

    /**
     * The broker, or why it could not start: every later use fails with that cause, rather than with a bare
     * {@code NoClassDefFoundError} of the holder class.
     */
    private record Started(KafkaClusterTestKit running, IllegalStateException failure) {
        KafkaClusterTestKit cluster() {
            if (failure != null) {
                throw new IllegalStateException(failure.getMessage(), failure);
            }
            return running;
        }
    }

    /** Lazy holder: the broker starts when a test first needs it, once per JVM. */
    private static final class Holder {
        static final Started STARTED = start();

        private static Started start() {
            // The broker halts the JVM with status 1 when its log directory fails, which happens when the test
            // kit's temporary folder goes away during JVM shutdown; a test JVM must end with its own status.
            org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) ->
                    System.err.println("Kafka test broker asked to halt (" + code + "): " + message));
            org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) ->
                    System.err.println("Kafka test broker asked to exit (" + code + "): " + message));
            try {
                var cluster = builder(Map.of()).build();
                cluster.format();
                cluster.startup();
                cluster.waitForReadyBrokers();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(cluster), "kafka-test-broker-stop"));
                return new Started(cluster, null);
            } catch (Exception | LinkageError e) {
                return new Started(null, new IllegalStateException("could not start the in-process Kafka test broker "
                        + "(kafka-test-common-runtime): " + e + "; check the test classpath (log4j-api and "
                        + "log4j-core are needed by the broker) and free disk in java.io.tmpdir", e));
            }
        }

        private static void stop(KafkaClusterTestKit cluster) {
            try {
                cluster.close();
            } catch (Exception e) {
                System.err.println("Kafka test broker did not stop cleanly: " + e);
            }
        }
    }
}
