package io.msgx.runner.config;

import java.util.List;

/**
 * Every configuration key this build reads. The names are a contract: outside tools start the runner with
 * them. Add keys; never rename one. docs/reference.md says what each one means and why its default.
 */
public final class Keys {

    public static final String STORE_KIND = "msgx.store.kind";
    public static final String STORE_URL = "msgx.store.url";
    public static final String STORE_USER = "msgx.store.user";
    public static final String STORE_PASSWORD = "msgx.store.password";
    public static final String STORE_SCHEMA = "msgx.store.schema";
    public static final String STORE_POOL_SIZE = "msgx.store.pool-size";
    public static final String STORE_STATEMENT_TIMEOUT = "msgx.store.statement-timeout";
    public static final String STORE_SOCKET_TIMEOUT = "msgx.store.socket-timeout";
    public static final String STORE_IDLE_TRANSACTION_TIMEOUT = "msgx.store.idle-transaction-timeout";
    public static final String LEASE_DURATION = "msgx.lease.duration";
    public static final String LEASE_RENEW_INTERVAL = "msgx.lease.renew-interval";

    public static final String MAILBOX_URL = "msgx.mailbox.url";
    public static final String MAILBOX_USER = "msgx.mailbox.user";
    public static final String MAILBOX_PASSWORD = "msgx.mailbox.password";
    public static final String MAILBOX_ZONE = "msgx.mailbox.zone";
    public static final String MAILBOX_READ_ONLY = "msgx.mailbox.read-only";
    public static final String MAILBOX_QUERY_TIMEOUT = "msgx.mailbox.query-timeout";
    public static final String MAILBOX_ACCEPTED_STATUSES = io.msgx.pipeline.mailbox.AcceptedStatuses.KEY;
    public static final String IN_TABLE = "msgx.mailbox.inbound.table";
    public static final String IN_ID = "msgx.mailbox.inbound.id-column";
    public static final String IN_CLOB = "msgx.mailbox.inbound.clob-column";
    public static final String IN_RECEIVED = "msgx.mailbox.inbound.received-column";
    public static final String IN_PROCESSED = "msgx.mailbox.inbound.processed-column";
    public static final String IN_SUBSYSTEM_NAME = "msgx.mailbox.inbound.subsystem-name-column";
    public static final String IN_SUBSYSTEM_TYPE = "msgx.mailbox.inbound.subsystem-type-column";
    public static final String IN_SUBSYSTEM_SUBTYPE = "msgx.mailbox.inbound.subsystem-subtype-column";
    public static final String IN_SUBSYSTEM_SEQUENCE = "msgx.mailbox.inbound.subsystem-sequence-column";
    public static final String IN_STATUS = "msgx.mailbox.inbound.status-column";
    public static final String OUT_TABLE = "msgx.mailbox.outbound.table";
    public static final String OUT_ID = "msgx.mailbox.outbound.id-column";
    public static final String OUT_CLOB = "msgx.mailbox.outbound.clob-column";
    public static final String OUT_INSERTED = "msgx.mailbox.outbound.inserted-column";
    public static final String OUT_SENT = "msgx.mailbox.outbound.sent-column";
    public static final String OUT_ROUTING = "msgx.mailbox.outbound.routing-id-column";

    public static final String KAFKA_ENABLED = "msgx.kafka.enabled";
    public static final String KAFKA_BOOTSTRAP = "msgx.kafka.bootstrap-servers";
    public static final String KAFKA_TOPIC_MSG = "msgx.kafka.topic.msg";
    public static final String KAFKA_TOPIC_SCHD = "msgx.kafka.topic.schd";
    public static final String KAFKA_TOPIC_REFERENCE = "msgx.kafka.topic.reference";
    public static final String KAFKA_CLIENT_ID = "msgx.kafka.client-id";
    public static final String KAFKA_DELIVERY_TIMEOUT = "msgx.kafka.delivery-timeout";
    public static final String KAFKA_REQUEST_TIMEOUT = "msgx.kafka.request-timeout";
    public static final String KAFKA_MAX_BLOCK = "msgx.kafka.max-block";
    public static final String KAFKA_LINGER = "msgx.kafka.linger";
    public static final String KAFKA_PRODUCER_PREFIX = "msgx.kafka.producer.";
    /** The site every published record names in its {@code ce_source} (docs/consumers.md). */
    public static final String SITE = "msgx.site";
    /** This instance's name in {@code ce_source}; default the host's name. */
    public static final String INSTANCE = "msgx.instance";

    public static final String AIRPORT_ZONE = "msgx.airport.zone";
    public static final String DAY_CUTOVER = "msgx.domain.operation-day.cutover";
    public static final String ABSENT_FIELDS = "msgx.domain.schedule-absent-fields";
    public static final String LISTS_MERGED_BY_KEY = "msgx.domain.lists-merged-by-key";

    public static final String CODEC_MAX_BYTES = "msgx.codec.max-message-bytes";
    public static final String CODEC_MAX_DEPTH = "msgx.codec.max-element-depth";
    public static final String CODEC_MAX_TEXT = "msgx.codec.max-text-length";
    public static final String CODEC_REFERENCE_TYPES = "msgx.codec.reference-types";
    public static final String IDENTITY_WITH_DAY = "msgx.identity.include-day-boundary";
    public static final String IDENTITY_SEQN_RESET_WINDOW = "msgx.identity.seqn-reset-window";
    public static final String IDENTITY_ACCEPT_CHANGE = "msgx.identity.accept-algorithm-change";

    public static final String REFERENCE_DNLD_REMOVES_ABSENT = "msgx.reference.dnld-removes-absent";

    public static final String CLAIM_BATCH = "msgx.pipeline.claim-batch";
    public static final String MAX_COMMIT_DELAY = "msgx.pipeline.max-commit-delay";
    public static final String CUTOVER_WATERMARK = "msgx.pipeline.cutover-watermark";
    public static final String POLL_INTERVAL = "msgx.pipeline.poll-interval";
    public static final String RETRY_MAX_ATTEMPTS = "msgx.pipeline.retry.max-attempts";
    public static final String RETRY_BACKOFF = "msgx.pipeline.retry.backoff";
    public static final String IGNORE = "msgx.pipeline.ignore";
    public static final String BACKFILL_BATCH = "msgx.pipeline.backfill-batch";
    public static final String BACKFILL_OVERDUE = "msgx.pipeline.backfill-overdue";
    public static final String BACKFILL_BACKOFF = "msgx.pipeline.backfill-backoff";
    public static final String BACKFILL_MAX_ATTEMPTS = "msgx.pipeline.backfill-max-attempts";
    public static final String RAW_RETENTION = "msgx.pipeline.raw-retention";
    public static final String DEDUP_MEMORY = "msgx.pipeline.dedup-memory";
    public static final String ARCHIVE_AFTER = "msgx.pipeline.archive-after";
    public static final String REPLAY_CHANNEL = "msgx.pipeline.replay-channel";
    public static final String GROUP_SIZE = "msgx.pipeline.group-size";
    public static final String FLIGHT_CACHE_SIZE = "msgx.pipeline.flight-cache-size";
    public static final String EVENT_RETENTION = "msgx.pipeline.event-retention";

    public static final String DISPATCH_BATCH = "msgx.dispatch.batch";
    public static final String DISPATCH_INTERVAL = "msgx.dispatch.interval";
    public static final String DISPATCH_MAX_ATTEMPTS = "msgx.dispatch.retry.max-attempts";
    public static final String DISPATCH_BACKOFF = "msgx.dispatch.retry.backoff";
    public static final String SCHD_FLUSH_LIMIT = "msgx.schd.flush-limit";

    public static final String REPLAY_CLASSES = "msgx.replay.error-classes";
    public static final String REQUESTS_RESP_GUARD = "msgx.requests.resp-guard";
    public static final String REQUESTS_CLOCK_SKEW = "msgx.requests.clock-skew";
    public static final String REQUESTS_TIMEOUT = "msgx.requests.timeout";
    public static final String REQUESTS_DAILY_AT = "msgx.requests.daily-schedule-at";
    public static final String REQUESTS_SENDER = "msgx.requests.sender";
    public static final String REQUESTS_ROUTING_ID = "msgx.requests.routing-id";
    public static final String REQUESTS_SCHEDULE_ROUTING_ID = "msgx.requests.schedule-routing-id";
    public static final String REQUESTS_REFERENCE_ROUTING_ID = "msgx.requests.reference-routing-id";
    public static final String REQUESTS_SEQN_WIDTH = "msgx.requests.seqn-width";
    public static final String REQUESTS_SCHEMA_LOCATION = "msgx.requests.schema-location";
    public static final String HISTORY_DAY_RETENTION = "msgx.history.operation-day-retention";
    public static final String HISTORY_QUIET = "msgx.history.quiet-period";
    public static final String HISTORY_UNPLACED = "msgx.history.unplaced-retention";
    public static final String RETENTION_PROCESSING = "msgx.retention.processing-history";
    public static final String RETENTION_FLIGHTS = "msgx.retention.flight-history";
    public static final String RETENTION_SCHEDULE_LOG = "msgx.retention.schedule-log";
    public static final String RETENTION_REQUESTS = "msgx.retention.closed-requests";
    /** Life of {@code OPERATOR_AUDIT} rows, the operator audit trail (issue 36, D-139). */
    public static final String AUDIT_RETENTION = "msgx.audit.retention";

    public static final String HTTP_PORT = "msgx.http.port";
    public static final String HTTP_TOKEN = "msgx.http.token";
    public static final String HTTP_MAX_BODY = "msgx.http.max-body-bytes";
    public static final String HTTP_HOST = "msgx.http.host";
    public static final String HTTP_READY_TIMEOUT = "msgx.http.ready-timeout";
    public static final String HTTP_CREDENTIALS_FILE = "msgx.http.credentials-file";
    public static final String HTTP_IDLE_TIMEOUT = "msgx.http.idle-timeout";
    public static final String HTTP_MAX_CONNECTIONS = "msgx.http.max-connections";
    public static final String HTTP_METRICS_OPEN = "msgx.http.metrics-open";
    public static final String HTTP_MAX_FAILED_ATTEMPTS = "msgx.http.max-failed-attempts";
    public static final String HTTP_TLS_KEYSTORE = "msgx.http.tls.keystore";
    public static final String HTTP_TLS_KEYSTORE_PASSWORD = "msgx.http.tls.keystore-password";
    public static final String HTTP_TLS_KEYSTORE_TYPE = "msgx.http.tls.keystore-type";

    public static final String LOG_FORMAT = "msgx.log.format";

    public static final String JOBS_BACKFILL = "msgx.jobs.backfill-interval";
    public static final String JOBS_HOUSEKEEPING = "msgx.jobs.housekeeping-interval";
    public static final String JOBS_STANDBY_POLL = "msgx.jobs.standby-poll";

    public static final String HEALTH_LIVENESS_PERIODS = "msgx.health.liveness-periods";
    public static final String HEALTH_LIVENESS_GRACE = "msgx.health.liveness-grace";

    /** Keys whose values are secrets: never printed, never logged. */
    public static final List<String> SECRETS = List.of(STORE_PASSWORD, MAILBOX_PASSWORD, HTTP_TOKEN,
            HTTP_TLS_KEYSTORE_PASSWORD);

    /** Prefixes under which any key is accepted and passed through (site-specific producer settings). */
    public static final List<String> OPEN_PREFIXES = List.of(KAFKA_PRODUCER_PREFIX);

    public static final List<String> ALL = List.of(STORE_KIND, STORE_URL, STORE_USER, STORE_PASSWORD, STORE_SCHEMA,
            STORE_POOL_SIZE, MAILBOX_URL, MAILBOX_USER, MAILBOX_PASSWORD, MAILBOX_ZONE, MAILBOX_READ_ONLY,
            MAILBOX_QUERY_TIMEOUT, MAILBOX_ACCEPTED_STATUSES, IN_TABLE, IN_ID, IN_CLOB, IN_RECEIVED, IN_PROCESSED, IN_SUBSYSTEM_NAME,
            IN_SUBSYSTEM_TYPE, IN_SUBSYSTEM_SUBTYPE, IN_SUBSYSTEM_SEQUENCE, IN_STATUS, OUT_TABLE, OUT_ID, OUT_CLOB,
            OUT_INSERTED, OUT_SENT, OUT_ROUTING, KAFKA_BOOTSTRAP, KAFKA_TOPIC_MSG, KAFKA_TOPIC_SCHD, KAFKA_CLIENT_ID,
            KAFKA_TOPIC_REFERENCE, REFERENCE_DNLD_REMOVES_ABSENT, KAFKA_DELIVERY_TIMEOUT, KAFKA_REQUEST_TIMEOUT, KAFKA_MAX_BLOCK, KAFKA_LINGER, SITE, INSTANCE, AIRPORT_ZONE, DAY_CUTOVER,
            ABSENT_FIELDS, LISTS_MERGED_BY_KEY, CODEC_MAX_BYTES, CODEC_MAX_DEPTH, CODEC_MAX_TEXT, CODEC_REFERENCE_TYPES, IDENTITY_WITH_DAY,
            IDENTITY_SEQN_RESET_WINDOW, IDENTITY_ACCEPT_CHANGE,
            CLAIM_BATCH, MAX_COMMIT_DELAY, CUTOVER_WATERMARK, POLL_INTERVAL, RETRY_MAX_ATTEMPTS, RETRY_BACKOFF, IGNORE,
            BACKFILL_BATCH, BACKFILL_OVERDUE, BACKFILL_BACKOFF, BACKFILL_MAX_ATTEMPTS, RAW_RETENTION, DEDUP_MEMORY,
            ARCHIVE_AFTER, REPLAY_CHANNEL, GROUP_SIZE, FLIGHT_CACHE_SIZE, EVENT_RETENTION, DISPATCH_BATCH, DISPATCH_INTERVAL, DISPATCH_MAX_ATTEMPTS,
            DISPATCH_BACKOFF, SCHD_FLUSH_LIMIT, REPLAY_CLASSES, REQUESTS_RESP_GUARD, REQUESTS_CLOCK_SKEW, REQUESTS_TIMEOUT, REQUESTS_DAILY_AT, REQUESTS_SENDER, REQUESTS_ROUTING_ID,
            REQUESTS_SCHEDULE_ROUTING_ID, REQUESTS_REFERENCE_ROUTING_ID, REQUESTS_SEQN_WIDTH,
            REQUESTS_SCHEMA_LOCATION, HISTORY_DAY_RETENTION, HISTORY_QUIET, HISTORY_UNPLACED,
            RETENTION_PROCESSING, RETENTION_FLIGHTS, RETENTION_SCHEDULE_LOG, RETENTION_REQUESTS, AUDIT_RETENTION, HTTP_PORT, HTTP_TOKEN,
            HTTP_MAX_BODY, HTTP_HOST, HTTP_READY_TIMEOUT, HTTP_CREDENTIALS_FILE, HTTP_IDLE_TIMEOUT, HTTP_MAX_CONNECTIONS,
            HTTP_METRICS_OPEN, HTTP_MAX_FAILED_ATTEMPTS, HTTP_TLS_KEYSTORE, HTTP_TLS_KEYSTORE_PASSWORD, HTTP_TLS_KEYSTORE_TYPE, JOBS_BACKFILL, JOBS_HOUSEKEEPING, JOBS_STANDBY_POLL,
            STORE_STATEMENT_TIMEOUT, STORE_SOCKET_TIMEOUT, STORE_IDLE_TRANSACTION_TIMEOUT, LEASE_DURATION,
            LEASE_RENEW_INTERVAL, KAFKA_ENABLED, HEALTH_LIVENESS_PERIODS, HEALTH_LIVENESS_GRACE,
            LOG_FORMAT);

    /**
     * {@code MSGX_*} environment variables the project uses that name no key, so start-up does not refuse them as
     * misspelt keys: the jars of scripts/kafka-broker.sh, and the launcher's heap and JVM options (bin/msgexchange). With {@link #NON_KEY_VARIABLE_PREFIXES}, anything else under
     * {@code MSGX_} must be a key's variable (D-72).
     */
    public static final List<String> NON_KEY_VARIABLES = List.of("MSGX_KAFKA_LIB", "MSGX_HEAP", "MSGX_JAVA_OPTS");
    /**
     * Prefixes of {@code MSGX_*} variables that are not keys: the logging configuration's ({@code MSGX_LOG_LEVEL}, and
     * any it reads besides; {@code MSGX_LOG_FORMAT} is the key {@code msgx.log.format}'s) and the tests' own ({@code MSGX_TEST_ORACLE_URL}, ...).
     */
    public static final List<String> NON_KEY_VARIABLE_PREFIXES = List.of("MSGX_LOG_", "MSGX_TEST_");

    private Keys() {
    }

    public static boolean known(String key) {
        return ALL.contains(key) || OPEN_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * Words that make a key a secret's wherever they stand in its name (split at {@code .}, {@code -} and
     * {@code _}): {@code ssl.key.password}, {@code sasl.jaas.config}, {@code sasl.oauthbearer.client.credentials.client.secret},
     * {@code ssl.keystore.certificate.chain} (inline key material), {@code msgx.http.token} (D-141).
     */
    private static final java.util.Set<String> SECRET_WORDS = java.util.Set.of("password", "passwd", "pwd",
            "passphrase", "secret", "secrets", "token", "tokens", "jaas", "credential", "credentials", "certificate",
            "certificates", "cert", "certs");
    /**
     * Last segments (after the last {@code .}) that are secrets themselves: {@code ssl.keystore.key}, an inline private
     * key; {@code basic.auth.user.info}, {@code user:password}.
     */
    private static final java.util.Set<String> SECRET_LAST_SEGMENTS = java.util.Set.of("key", "keys", "info", "userinfo");
    /**
     * Last words that make a key a place, not a secret: {@code msgx.http.credentials-file},
     * {@code ssl.truststore.location}. The file it names is guarded by its permissions, and its path helps an operator.
     */
    private static final java.util.Set<String> PATH_WORDS = java.util.Set.of("file", "location", "path", "dir",
            "directory");

    /**
     * Whether {@code key}'s value is a secret, never to be printed (D-141): one of {@link #SECRETS}; or a name with a
     * word of {@link #SECRET_WORDS} in it (password, secret, token, jaas, credentials, certificate, ...) that does not end
     * in a place ({@code -file}, {@code .location}, {@code .path}); or a name whose last segment is key material
     * ({@code ssl.keystore.key}) or user info ({@code basic.auth.user.info}). A rule rather than a list, because the
     * open prefix {@code msgx.kafka.producer.*} passes any client property through, present and future.
     */
    public static boolean secret(String key) {
        if (SECRETS.contains(key)) {
            return true;
        }
        var lower = key.toLowerCase(java.util.Locale.ROOT);
        var words = List.of(lower.split("[.\\-_]+"));
        if (words.isEmpty() || PATH_WORDS.contains(words.get(words.size() - 1))) {
            return false;
        }
        if (words.stream().anyMatch(SECRET_WORDS::contains)) {
            return true;
        }
        var lastSegment = lower.substring(lower.lastIndexOf('.') + 1);
        return SECRET_LAST_SEGMENTS.contains(lastSegment);
    }
}
