package io.msgx.adapter.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates the sink's three topics when they are missing: the msg topic with the broker's defaults, the schd topic
 * and the reference topic with {@code cleanup.policy=compact} (they hold the latest state per FLID and per
 * {@code RTYPE:RKEY}, so compaction keeps exactly what a new consumer needs). Meant for the embedded demo and the tests; a production cluster may provision the topics itself
 * (partitions, replication, retention are its decision), and then this class need not run at all.
 *
 * <p>Idempotent: existing topics are left as they are (also when another process creates them concurrently). It
 * then checks the topics, created or found, and refuses (with the command that fixes it):
 * <ul>
 *   <li>a schd or reference topic that is not compacted: it would lose the latest state of quiet flights or
 *       records;</li>
 *   <li>a topic whose {@code max.message.bytes} is below {@link KafkaSinkSettings#largestBatchBytes()}: the broker
 *       would refuse batches the producer considers valid (see {@link KafkaEventSink}, "Record size").</li>
 * </ul>
 * Every admin call is bounded by the given timeout.
 */
public final class KafkaTopics {

    /** What {@link #ensure} found: the topics it created and the ones that were already there. */
    public record Ensured(Set<String> created, Set<String> existing) {
        public Ensured {
            created = Set.copyOf(created);
            existing = Set.copyOf(existing);
        }
    }

    private KafkaTopics() {
    }

    /**
     * Ensures both topics through a short-lived admin client built from {@link KafkaSinkSettings#connectionConfig()},
     * each admin call bounded by the settings' delivery timeout.
     */
    public static Ensured ensure(KafkaSinkSettings settings, int partitions, short replication) {
        try (var admin = Admin.create(settings.connectionConfig())) {
            return ensure(admin, settings, partitions, replication, settings.deliveryTimeout());
        }
    }

    /**
     * Ensures both topics with the given admin client.
     *
     * @throws IllegalArgumentException if partitions or replication is below 1
     * @throws IllegalStateException    if the cluster cannot be reached, refuses to create a topic, or holds a schd
     *                                  topic that is not compacted; the message says what to check
     */
    public static Ensured ensure(Admin admin, KafkaSinkSettings settings, int partitions, short replication,
                                 Duration timeout) {
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(timeout, "timeout");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        if (replication < 1) {
            throw new IllegalArgumentException("replication must be at least 1, got " + replication);
        }
        var wanted = List.of(
                new NewTopic(settings.msgTopic(), partitions, replication),
                new NewTopic(settings.schdTopic(), partitions, replication)
                        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)),
                new NewTopic(settings.referenceTopic(), partitions, replication)
                        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));

        var present = await(admin.listTopics().names(), timeout, "list the topics", settings);
        var created = new TreeSet<String>();
        var existing = new TreeSet<String>();
        var toCreate = new ArrayList<NewTopic>();
        for (var topic : wanted) {
            if (present.contains(topic.name())) {
                existing.add(topic.name());
            } else {
                toCreate.add(topic);
            }
        }
        if (!toCreate.isEmpty()) {
            var results = admin.createTopics(toCreate).values();
            for (var topic : toCreate) {
                if (createdNow(results.get(topic.name()), timeout, topic.name(), settings)) {
                    created.add(topic.name());
                } else {
                    existing.add(topic.name());
                }
            }
        }
        checkTopicConfigs(admin, settings, timeout);
        return new Ensured(created, existing);
    }

    /**
     * The sink's topics the cluster does not have, in the order msg, schd, reference (empty when all three exist):
     * for the runner's start-up, which refuses to start without them (D-71) rather than leave events pending forever.
     * Needs only the {@code Describe} permission a producer's {@code Write} implies. Bounded by {@code timeout}.
     *
     * @throws IllegalStateException when the cluster cannot be asked within {@code timeout}
     */
    public static List<String> missing(KafkaSinkSettings settings, Duration timeout) {
        Objects.requireNonNull(settings, "settings");
        var config = new java.util.HashMap<>(settings.connectionConfig());
        config.put(org.apache.kafka.clients.admin.AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.put(org.apache.kafka.clients.admin.AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (var admin = Admin.create(config)) {
            var present = await(admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions()
                    .timeoutMs((int) timeout.toMillis())).names(), timeout, "list the topics", settings);
            return java.util.stream.Stream.of(settings.msgTopic(), settings.schdTopic(), settings.referenceTopic())
                    .filter(topic -> !present.contains(topic)).toList();
        }
    }

    /**
     * For the runner's start-up: refuses a schd or reference topic that is not compacted (it would lose the latest
     * state of quiet flights and records), naming the topic, its key and the command that fixes it. Reading a topic's
     * configuration needs {@code DescribeConfigs}; a cluster that refuses it (authorization) is not refused for that:
     * the answer is then empty and the caller says it could not check. Bounded by {@code timeout}.
     *
     * @return empty when both are compacted or could not be read; the refusal otherwise
     * @throws IllegalStateException when the cluster cannot be asked within {@code timeout}
     */
    public static java.util.Optional<String> notCompacted(KafkaSinkSettings settings, Duration timeout) {
        Objects.requireNonNull(settings, "settings");
        var config = new java.util.HashMap<>(settings.connectionConfig());
        config.put(org.apache.kafka.clients.admin.AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.put(org.apache.kafka.clients.admin.AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (var admin = Admin.create(config)) {
            var schd = new ConfigResource(ConfigResource.Type.TOPIC, settings.schdTopic());
            var reference = new ConfigResource(ConfigResource.Type.TOPIC, settings.referenceTopic());
            Map<ConfigResource, org.apache.kafka.clients.admin.Config> configs;
            try {
                configs = describeConfigs(admin, List.of(schd, reference), settings, timeout);
            } catch (IllegalStateException e) {
                if (e.getCause() instanceof org.apache.kafka.common.errors.AuthorizationException) {
                    return java.util.Optional.empty();
                }
                throw e;
            }
            try {
                requireCompacted(configs.get(schd), settings.schdTopic(), "msgx.kafka.topic.schd", "FLID");
                requireCompacted(configs.get(reference), settings.referenceTopic(), "msgx.kafka.topic.reference",
                        "RTYPE:RKEY");
                return java.util.Optional.empty();
            } catch (IllegalStateException refused) {
                return java.util.Optional.of(refused.getMessage());
            }
        }
    }

    private static boolean createdNow(KafkaFuture<Void> result, Duration timeout, String topic,
                                      KafkaSinkSettings settings) {
        try {
            result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw failure("create topic " + topic, e.getCause(), settings);
        } catch (TimeoutException e) {
            throw failure("create topic " + topic + " within " + timeout.toMillis() + " ms", e, settings);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("create topic " + topic + " (interrupted)", e, settings);
        }
    }

    private static void checkTopicConfigs(Admin admin, KafkaSinkSettings settings, Duration timeout) {
        var msg = new ConfigResource(ConfigResource.Type.TOPIC, settings.msgTopic());
        var schd = new ConfigResource(ConfigResource.Type.TOPIC, settings.schdTopic());
        var reference = new ConfigResource(ConfigResource.Type.TOPIC, settings.referenceTopic());
        var configs = describeConfigs(admin, List.of(msg, schd, reference), settings, timeout);

        requireCompacted(configs.get(schd), settings.schdTopic(), "msgx.kafka.topic.schd", "FLID");
        requireCompacted(configs.get(reference), settings.referenceTopic(), "msgx.kafka.topic.reference",
                "RTYPE:RKEY");
        for (var topic : List.of(msg, schd, reference)) {
            var maxMessage = configs.get(topic).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (maxMessage != null && maxMessage.value() != null
                    && Long.parseLong(maxMessage.value()) < settings.largestBatchBytes()) {
                throw new IllegalStateException("Topic " + topic.name() + " accepts batches up to max.message.bytes="
                        + maxMessage.value() + ", less than the producer may send (" + settings.largestBatchBytes()
                        + " bytes = max(max.request.size, batch.size)): lower msgx.kafka.producer.max.request.size or "
                        + "raise the topic's limit: kafka-configs.sh --alter --entity-type topics --entity-name "
                        + topic.name() + " --add-config max.message.bytes=" + settings.largestBatchBytes());
            }
        }
    }

    /**
     * The configuration of {@code topics}. A topic created a moment ago may not be known yet to the broker that
     * answers (the cluster's metadata follows the creation): {@code UnknownTopicOrPartition} is asked again every
     * 100 ms within {@code timeout}, then it is the failure.
     */
    private static Map<ConfigResource, org.apache.kafka.clients.admin.Config> describeConfigs(
            Admin admin, List<ConfigResource> topics, KafkaSinkSettings settings, Duration timeout) {
        var what = "read the configuration of topics " + settings.msgTopic() + ", " + settings.schdTopic() + " and "
                + settings.referenceTopic();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return await(admin.describeConfigs(topics).all(), timeout, what, settings);
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure(what + " (interrupted)", e, settings);
            }
        }
    }

    private static void requireCompacted(org.apache.kafka.clients.admin.Config config, String topic, String key,
                                         String keyedBy) {
        var policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (policy == null || policy.value() == null || !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            throw new IllegalStateException("Topic " + topic + " (" + key + ") exists with "
                    + "cleanup.policy=" + (policy == null ? "?" : policy.value()) + ", but it holds the latest state "
                    + "per " + keyedBy + " and must be compacted: kafka-configs.sh --alter --entity-type topics "
                    + "--entity-name " + topic + " --add-config cleanup.policy=compact");
        }
    }

    private static <T> T await(KafkaFuture<T> future, Duration timeout, String what, KafkaSinkSettings settings) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw failure(what, e.getCause(), settings);
        } catch (TimeoutException e) {
            throw failure(what + " within " + timeout.toMillis() + " ms", e, settings);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(what + " (interrupted)", e, settings);
        }
    }

    private static IllegalStateException failure(String what, Throwable cause, KafkaSinkSettings settings) {
        return new IllegalStateException("Could not " + what + " on " + settings.bootstrapServers() + ": "
                + KafkaEventSink.reasonOf(cause) + "; check msgx.kafka.bootstrap-servers and that the client may "
                + "describe and create topics", cause);
    }
}
