package io.msgx.adapter.kafka;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How the Kafka event sink connects and how long it may wait. A constructed instance is always valid: every
 * violation is an {@link IllegalArgumentException} whose message starts with the offending setting key
 * ({@code msgx.kafka.*}) and says what to put there.
 *
 * <p>The timeouts are consistent by construction: {@code delivery-timeout >= linger + request-timeout} (the
 * producer's own rule) and {@code max-block <= delivery-timeout}, so one {@link KafkaEventSink#send} call is
 * bounded by {@link #sendBound()}.
 *
 * @param bootstrapServers   {@code msgx.kafka.bootstrap-servers}: comma-separated {@code host:port} list
 * @param clientId           {@code msgx.kafka.client-id}: the producer's client id (broker logs, quotas)
 * @param msgTopic           {@code msgx.kafka.topic.msg}: change notifications (default {@value #DEFAULT_MSG_TOPIC})
 * @param schdTopic          {@code msgx.kafka.topic.schd}: full state, compacted (default {@value #DEFAULT_SCHD_TOPIC})
 * @param referenceTopic     {@code msgx.kafka.topic.reference}: reference data by {@code RTYPE:RKEY}, compacted
 *                           (default {@value #DEFAULT_REFERENCE_TOPIC}, sis-format §8)
 * @param deliveryTimeout    {@code msgx.kafka.delivery-timeout}: the producer's {@code delivery.timeout.ms}, the most a
 *                           handed-over record may take to be acknowledged, retries included (default 30 s)
 * @param requestTimeout     {@code msgx.kafka.request-timeout}: one produce request's {@code request.timeout.ms}
 *                           (default 10 s, so a record gets about three attempts within the delivery timeout)
 * @param maxBlock           {@code msgx.kafka.max-block}: {@code max.block.ms}, the most one hand-over may block on
 *                           missing metadata or a full buffer (default 10 s)
 * @param linger             {@code msgx.kafka.linger}: {@code linger.ms}, batching delay (default 5 ms)
 * @param producerProperties {@code msgx.kafka.producer.*}: extra producer properties passed through as they are (TLS,
 *                           SASL, compression, buffer sizes). Keys the sink owns are refused; see {@link #OWNED_KEYS}.
 * @param eventSource        every record's {@code ce_source}, {@code /msgexchange/<site>/<instance>} ({@code msgx.site},
 *                           {@code msgx.instance}; {@link #eventSource(String, String)})
 */
public record KafkaSinkSettings(String bootstrapServers, String clientId, String msgTopic, String schdTopic,
                                String referenceTopic, Duration deliveryTimeout, Duration requestTimeout, Duration maxBlock,
                                Duration linger, Map<String, String> producerProperties, String eventSource) {

    public static final String DEFAULT_MSG_TOPIC = "msgx.flight.msg";
    public static final String DEFAULT_SCHD_TOPIC = "msgx.flight.schd";
    public static final String DEFAULT_REFERENCE_TOPIC = "msgx.reference";
    public static final String DEFAULT_CLIENT_ID = "msgx-sink";
    public static final Duration DEFAULT_DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_MAX_BLOCK = Duration.ofSeconds(10);
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(5);
    /** {@code msgx.site} when none is configured. */
    public static final String DEFAULT_SITE = "default";

    /** A site or instance name: one URI path segment, so that {@code ce_source} is a valid URI reference. */
    private static final Pattern SOURCE_SEGMENT = Pattern.compile("[A-Za-z0-9._~-]{1,64}");
    /** {@link #eventSource(String, String)}'s form: {@code /msgexchange/<site>/<instance>}, each a source segment. */
    private static final Pattern EVENT_SOURCE =
            Pattern.compile("/msgexchange/" + SOURCE_SEGMENT.pattern() + "/" + SOURCE_SEGMENT.pattern());

    /**
     * Extra time {@link KafkaEventSink#send} waits beyond the producer's own delivery timeout, so that the producer,
     * not the sink, normally reports the expiry (with its precise reason).
     */
    public static final Duration WAIT_MARGIN = Duration.ofSeconds(1);

    /**
     * Producer properties the sink sets itself; {@code msgx.kafka.producer.*} may not override them (the
     * delivery guarantees and the time bound depend on them).
     */
    public static final Set<String> OWNED_KEYS = Set.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ProducerConfig.CLIENT_ID_CONFIG,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, ProducerConfig.ACKS_CONFIG,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, ProducerConfig.RETRIES_CONFIG,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            ProducerConfig.MAX_BLOCK_MS_CONFIG, ProducerConfig.LINGER_MS_CONFIG,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);

    private static final int DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;
    private static final int DEFAULT_BATCH_SIZE = 16 * 1024;
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    public KafkaSinkSettings {
        bootstrapServers = checkBootstrapServers(bootstrapServers);
        if (clientId == null || clientId.isBlank()) {
            throw new IllegalArgumentException("msgx.kafka.client-id must not be blank (default " + DEFAULT_CLIENT_ID
                    + ")");
        }
        checkTopic("msgx.kafka.topic.msg", msgTopic);
        checkTopic("msgx.kafka.topic.schd", schdTopic);
        if (msgTopic.equals(schdTopic)) {
            throw new IllegalArgumentException("msgx.kafka.topic.schd must differ from msgx.kafka.topic.msg (both are '"
                    + msgTopic + "'): the schd topic is compacted, the msg topic is not");
        }
        checkTopic("msgx.kafka.topic.reference", referenceTopic);
        if (referenceTopic.equals(msgTopic) || referenceTopic.equals(schdTopic)) {
            throw new IllegalArgumentException("msgx.kafka.topic.reference must differ from msgx.kafka.topic.msg and "
                    + "msgx.kafka.topic.schd (it is '" + referenceTopic + "'): its keys are RTYPE:RKEY, not FLIDs");
        }
        checkMillis("msgx.kafka.delivery-timeout", deliveryTimeout, 1);
        checkMillis("msgx.kafka.request-timeout", requestTimeout, 1);
        checkMillis("msgx.kafka.max-block", maxBlock, 1);
        checkMillis("msgx.kafka.linger", linger, 0);
        if (deliveryTimeout.compareTo(linger.plus(requestTimeout)) < 0) {
            throw new IllegalArgumentException("msgx.kafka.delivery-timeout (" + deliveryTimeout.toMillis()
                    + " ms) must be at least msgx.kafka.linger + msgx.kafka.request-timeout (" + linger.toMillis()
                    + " + " + requestTimeout.toMillis() + " ms): raise it or lower the request timeout");
        }
        if (maxBlock.compareTo(deliveryTimeout) > 0) {
            throw new IllegalArgumentException("msgx.kafka.max-block (" + maxBlock.toMillis()
                    + " ms) must not exceed msgx.kafka.delivery-timeout (" + deliveryTimeout.toMillis() + " ms)");
        }
        producerProperties = checkProducerProperties(producerProperties);
        if (eventSource == null || !EVENT_SOURCE.matcher(eventSource).matches()) {
            throw new IllegalArgumentException("the event source must be /msgexchange/<site>/<instance>, got '"
                    + eventSource + "' (msgx.site, msgx.instance)");
        }
        for (var sizeKey : List.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, ProducerConfig.BATCH_SIZE_CONFIG)) {
            var size = producerProperties.get(sizeKey);
            if (size != null && !size.trim().matches("[0-9]{1,9}")) {
                throw new IllegalArgumentException("msgx.kafka.producer." + sizeKey + " must be a byte count, got '"
                        + size + "'");
            }
        }
    }

    /**
     * The largest batch the producer can send: {@code max(max.request.size, batch.size)} as configured through
     * {@code msgx.kafka.producer.*} (Kafka's defaults 1048576 and 16384 otherwise). A topic's
     * {@code max.message.bytes} must be at least this, so the broker never refuses a batch as too large.
     */
    public int largestBatchBytes() {
        return Math.max(intProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, DEFAULT_MAX_REQUEST_SIZE),
                intProperty(ProducerConfig.BATCH_SIZE_CONFIG, DEFAULT_BATCH_SIZE));
    }

    /** Defaults for everything but the brokers. */
    public static KafkaSinkSettings defaults(String bootstrapServers) {
        return new KafkaSinkSettings(bootstrapServers, DEFAULT_CLIENT_ID, DEFAULT_MSG_TOPIC, DEFAULT_SCHD_TOPIC,
                DEFAULT_REFERENCE_TOPIC, DEFAULT_DELIVERY_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_MAX_BLOCK, DEFAULT_LINGER, Map.of(),
                eventSource(DEFAULT_SITE, InstanceName.ofThisHost()));
    }

    public KafkaSinkSettings withClientId(String newClientId) {
        return new KafkaSinkSettings(bootstrapServers, newClientId, msgTopic, schdTopic, referenceTopic, deliveryTimeout,
                requestTimeout, maxBlock, linger, producerProperties, eventSource);
    }

    public KafkaSinkSettings withTopics(String newMsgTopic, String newSchdTopic) {
        return new KafkaSinkSettings(bootstrapServers, clientId, newMsgTopic, newSchdTopic, referenceTopic, deliveryTimeout,
                requestTimeout, maxBlock, linger, producerProperties, eventSource);
    }

    public KafkaSinkSettings withReferenceTopic(String newReferenceTopic) {
        return new KafkaSinkSettings(bootstrapServers, clientId, msgTopic, schdTopic, newReferenceTopic, deliveryTimeout,
                requestTimeout, maxBlock, linger, producerProperties, eventSource);
    }

    /** The settings of a build before the reference topic and the event source: their defaults. */
    public KafkaSinkSettings(String bootstrapServers, String clientId, String msgTopic, String schdTopic,
                             Duration deliveryTimeout, Duration requestTimeout, Duration maxBlock, Duration linger,
                             Map<String, String> producerProperties) {
        this(bootstrapServers, clientId, msgTopic, schdTopic, DEFAULT_REFERENCE_TOPIC, deliveryTimeout, requestTimeout,
                maxBlock, linger, producerProperties);
    }

    /** The settings of a build before the event source: site {@value #DEFAULT_SITE}, this host's name. */
    public KafkaSinkSettings(String bootstrapServers, String clientId, String msgTopic, String schdTopic,
                             String referenceTopic, Duration deliveryTimeout, Duration requestTimeout, Duration maxBlock,
                             Duration linger, Map<String, String> producerProperties) {
        this(bootstrapServers, clientId, msgTopic, schdTopic, referenceTopic, deliveryTimeout, requestTimeout, maxBlock,
                linger, producerProperties, eventSource(DEFAULT_SITE, InstanceName.ofThisHost()));
    }

    /** The same settings, naming site {@code site} and instance {@code instance} as every record's source. */
    public KafkaSinkSettings withEventSource(String site, String instance) {
        return new KafkaSinkSettings(bootstrapServers, clientId, msgTopic, schdTopic, referenceTopic, deliveryTimeout,
                requestTimeout, maxBlock, linger, producerProperties, eventSource(site, instance));
    }

    /**
     * {@code ce_source} of site {@code site} and instance {@code instance}: {@code /msgexchange/<site>/<instance>}. Each
     * must be one URI path segment (letters, digits, {@code . _ ~ -}, at most 64); a message naming the key says what
     * is wrong otherwise.
     */
    public static String eventSource(String site, String instance) {
        if (site == null || !SOURCE_SEGMENT.matcher(site).matches()) {
            throw new IllegalArgumentException("msgx.site must be 1 to 64 letters, digits or . _ ~ - (the airport, e.g. "
                    + "ZGGG), got '" + site + "'");
        }
        if (instance == null || !SOURCE_SEGMENT.matcher(instance).matches()) {
            throw new IllegalArgumentException("msgx.instance must be 1 to 64 letters, digits or . _ ~ - (default: this "
                    + "host's name), got '" + instance + "'");
        }
        return "/msgexchange/" + site + "/" + instance;
    }

    public KafkaSinkSettings withTimeouts(Duration newDeliveryTimeout, Duration newRequestTimeout,
                                          Duration newMaxBlock) {
        return new KafkaSinkSettings(bootstrapServers, clientId, msgTopic, schdTopic, referenceTopic, newDeliveryTimeout,
                newRequestTimeout, newMaxBlock, linger, producerProperties, eventSource);
    }

    public KafkaSinkSettings withLinger(Duration newLinger) {
        return new KafkaSinkSettings(bootstrapServers, clientId, msgTopic, schdTopic, referenceTopic, deliveryTimeout,
                requestTimeout, maxBlock, newLinger, producerProperties, eventSource);
    }

    public KafkaSinkSettings withProducerProperties(Map<String, String> newProducerProperties) {
        return new KafkaSinkSettings(bootstrapServers, clientId, msgTopic, schdTopic, referenceTopic, deliveryTimeout,
                requestTimeout, maxBlock, linger, newProducerProperties, eventSource);
    }

    /**
     * The most one {@link KafkaEventSink#send} call blocks (71 s with the defaults): a round's transaction takes at most
     * {@code max-block} to start, {@link #acknowledgementBound()} for its records and {@code max-block} to commit or
     * abort; a round that lost a refused record starts again in a new transaction only within the first two
     * {@code max-block}s of the call.
     */
    public Duration sendBound() {
        return maxBlock.multipliedBy(3).plus(acknowledgementBound());
    }

    /**
     * How long a round's records may take from their hand-over (41 s with the defaults): {@code max-block} to hand
     * them over, then {@code delivery-timeout} + {@link #WAIT_MARGIN} for the acknowledgements.
     */
    public Duration acknowledgementBound() {
        return maxBlock.plus(deliveryTimeout).plus(WAIT_MARGIN);
    }

    /**
     * The producer's {@code transactional.id} (D-109): {@code msgexchange:} and the msg topic, the same for every
     * instance of a site and different for every site that publishes to other topics on the same cluster. The
     * instance that becomes active fences the producer of the one it replaced with it.
     */
    public String transactionalId() {
        return "msgexchange:" + msgTopic;
    }

    /** The producer's longest pause between two connection tries to a broker, unless msgx.kafka.producer.* sets it. */
    static final String DEFAULT_RECONNECT_BACKOFF_MAX_MS = "250";

    /** The complete producer configuration: the extra properties, then the ones the sink owns. */
    public Map<String, Object> producerConfig() {
        var config = new HashMap<String, Object>(producerProperties);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId());
        // A round's transaction lives as long as the round may (the coordinator aborts one older than this).
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Long.toString(sendBound().toMillis()));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        config.put(ProducerConfig.RETRIES_CONFIG, Integer.toString(Integer.MAX_VALUE));
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(deliveryTimeout.toMillis()));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeout.toMillis()));
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(maxBlock.toMillis()));
        config.put(ProducerConfig.LINGER_MS_CONFIG, Long.toString(linger.toMillis()));
        // A broker that comes back is reached again within a quarter second: the client's default backs off up to
        // 1 s between reconnects, longer than the pipeline's resume bound of two poll intervals (D-95). Overridable.
        config.putIfAbsent(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, DEFAULT_RECONNECT_BACKOFF_MAX_MS);
        return config;
    }

    /**
     * The connection part of the configuration (brokers, client id, {@code security.*}, {@code ssl.*},
     * {@code sasl.*}), for an admin client or a consumer talking to the same cluster.
     */
    public Map<String, Object> connectionConfig() {
        var config = new HashMap<String, Object>();
        producerProperties.forEach((key, value) -> {
            if (key.startsWith("security.") || key.startsWith("ssl.") || key.startsWith("sasl.")) {
                config.put(key, value);
            }
        });
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + "-admin");
        return config;
    }

    /** Never prints property values: they may hold passwords (SASL JAAS config, key store passwords). */
    @Override
    public String toString() {
        return "KafkaSinkSettings[bootstrapServers=" + bootstrapServers + ", clientId=" + clientId + ", msgTopic="
                + msgTopic + ", schdTopic=" + schdTopic + ", referenceTopic=" + referenceTopic + ", deliveryTimeout=" + deliveryTimeout + ", requestTimeout="
                + requestTimeout + ", maxBlock=" + maxBlock + ", linger=" + linger + ", producerProperties="
                + new TreeMap<>(producerProperties).keySet() + "]";
    }

    private int intProperty(String key, int defaultValue) {
        var value = producerProperties.get(key);
        return value == null ? defaultValue : Integer.parseInt(value.trim());
    }

    private static String checkBootstrapServers(String servers) {
        var key = "msgx.kafka.bootstrap-servers";
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException(key + " must be set: a comma-separated host:port list, e.g. "
                    + "broker1:9092,broker2:9092");
        }
        var normalized = new StringBuilder();
        for (var part : servers.split(",", -1)) {
            var server = part.trim();
            int colon = server.lastIndexOf(':');
            if (colon <= 0 || !validPort(server.substring(colon + 1))) {
                throw new IllegalArgumentException(key + ": '" + server + "' is not host:port (in '" + servers
                        + "'); expected a comma-separated list like broker1:9092,broker2:9092");
            }
            if (normalized.length() > 0) {
                normalized.append(',');
            }
            normalized.append(server);
        }
        return normalized.toString();
    }

    private static boolean validPort(String port) {
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int value = Integer.parseInt(port);
        return value >= 1 && value <= 65535;
    }

    private static void checkTopic(String key, String topic) {
        if (topic == null || !TOPIC_NAME.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException(key + ": '" + topic + "' is not a valid Kafka topic name (1 to 249 "
                    + "characters of a-z A-Z 0-9 . _ -)");
        }
    }

    private static void checkMillis(String key, Duration value, long minMillis) {
        if (value == null) {
            throw new IllegalArgumentException(key + " must be set");
        }
        if (value.isNegative() || value.toMillis() < minMillis || value.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be between " + minMillis + " ms and " + Integer.MAX_VALUE
                    + " ms, got " + value);
        }
    }

    private static Map<String, String> checkProducerProperties(Map<String, String> properties) {
        if (properties == null) {
            return Map.of();
        }
        var copy = new LinkedHashMap<String, String>();
        properties.forEach((key, value) -> {
            if (key == null || key.isBlank() || value == null) {
                throw new IllegalArgumentException("msgx.kafka.producer." + key + " must have a name and a value");
            }
            if (OWNED_KEYS.contains(key)) {
                throw new IllegalArgumentException("msgx.kafka.producer." + key + " is set by the sink itself and "
                        + "cannot be overridden; use the msgx.kafka.* settings (bootstrap-servers, client-id, "
                        + "delivery-timeout, request-timeout, max-block, linger) instead");
            }
            copy.put(key, value);
        });
        return Map.copyOf(copy);
    }
}
