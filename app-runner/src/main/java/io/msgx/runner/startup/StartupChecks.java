package io.msgx.runner.startup;

import io.msgx.adapter.kafka.KafkaClusterProbe;
import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTopics;
import io.msgx.pipeline.codec.MessageIdentity;
import io.msgx.pipeline.mailbox.ReadOnlyMailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.store.StoreBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;

/**
 * What start-up refuses before this instance asks for the lease: a schema this build does not know, identities made by
 * another algorithm than the one configured (D-86), a Kafka that does not answer, lacks a topic or deletes a compacted
 * topic's records by age (D-71, issue 35); and what it warns about. Each refusal says what to do.
 */
public final class StartupChecks {

    private static final Logger log = LoggerFactory.getLogger(StartupChecks.class);

    private StartupChecks() {
    }

    /**
     * Every check of start-up, in order: the store's schema (and what its backend cautions about for {@code build}),
     * the identity algorithm, Kafka when it is on; then the warnings of a shadow deployment and of Kafka turned off.
     *
     * @throws IllegalStateException saying what is wrong and what to do
     */
    public static void require(StoreBackend backend, BuildInfo build, PipelineStore store, RunnerConfig config) {
        backend.requireCurrent();
        backend.caution(build).ifPresent(caution -> log.warn("{}", caution));
        requireIdentityAlgorithm(store, config);
        var kafka = config.kafka().sink();
        if (kafka != null) {
            requireKafka(kafka);
        }
        if (config.mailbox().readOnly()) {
            log.warn("SHADOW DEPLOYMENT ({}=true): this instance never writes to the shared mailbox — no processing "
                    + "marks, no outbound requests, no compatibility entry", ReadOnlyMailbox.KEY);
        }
        if (kafka == null) {
            log.warn("Kafka is turned off ({}=false): events are kept in the outbox until an instance with Kafka "
                    + "publishes them", Keys.KAFKA_ENABLED);
        }
    }

    /**
     * Refuses to start when the identities the store holds were made by another algorithm than the one configured
     * (D-86), unless {@code msgx.identity.accept-algorithm-change=true} says the change is meant.
     */
    static void requireIdentityAlgorithm(PipelineStore store, RunnerConfig config) {
        var change = MessageIdentity.algorithmChange(store.identities().latestIdentityKey(),
                config.processing().identityWithDay());
        if (change.isEmpty()) {
            return;
        }
        if (!config.acceptIdentityChange()) {
            throw new IllegalStateException("Refusing to start: " + change.get());
        }
        log.warn("The identity algorithm changes ({}=true): {}", Keys.IDENTITY_ACCEPT_CHANGE, change.get());
    }

    /**
     * Start-up refuses a Kafka that does not answer, or lacks a topic (D-71): the outbox would otherwise fill in
     * silence, and a missing reference topic left the reference events pending forever. It refuses a schd or reference
     * topic that is not compacted too: a topic that deletes by age would lose the state of quiet flights (issue 35).
     * Bounded by the request timeout.
     */
    static void requireKafka(KafkaSinkSettings settings) {
        var bound = settings.requestTimeout();
        var problem = new KafkaClusterProbe(settings).problem(bound);
        if (problem.isPresent()) {
            throw new IllegalStateException("Kafka is required and does not answer at start-up: " + problem.get()
                    + ". Check " + Keys.KAFKA_BOOTSTRAP + " (and the msgx.kafka.producer.* security "
                    + "settings), or set " + Keys.KAFKA_ENABLED + "=false to run without publishing");
        }
        var missing = KafkaTopics.missing(settings, bound);
        if (!missing.isEmpty()) {
            var lines = new ArrayList<String>();
            for (var topic : missing) {
                var key = topic.equals(settings.msgTopic()) ? Keys.KAFKA_TOPIC_MSG
                        : topic.equals(settings.schdTopic()) ? Keys.KAFKA_TOPIC_SCHD
                        : Keys.KAFKA_TOPIC_REFERENCE;
                lines.add(topic + " (" + key + "): kafka-topics.sh --bootstrap-server " + settings.bootstrapServers()
                        + " --create --topic " + topic + (key.equals(Keys.KAFKA_TOPIC_MSG) ? ""
                        : " --config cleanup.policy=compact"));
            }
            throw new IllegalStateException("Kafka at " + settings.bootstrapServers() + " lacks the topic(s) this "
                    + "service publishes to; create them (partitions, replication and retention are the cluster's "
                    + "decision, docs/operations.md), or correct the topic keys:\n  " + String.join("\n  ", lines));
        }
        KafkaTopics.notCompacted(settings, bound).ifPresent(refusal -> {
            throw new IllegalStateException("Kafka at " + settings.bootstrapServers() + ": " + refusal);
        });
    }
}
