package io.msgx.runner.config;

import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.domain.engine.AbsentFieldPolicy;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.codec.CodecLimits;
import io.msgx.pipeline.codec.MsgKind;
import io.msgx.pipeline.delivery.DispatchSettings;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.lifecycle.FlightHistorySettings;
import io.msgx.pipeline.lifecycle.LifecycleSettings;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.lifecycle.RetentionJob;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.pump.IgnoreRules;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.pump.ReferenceSettings;
import io.msgx.pipeline.request.RequestSettings;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.runner.logging.LogFormat;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Everything the runner needs, read and validated from a {@link ConfigSource} in one go: a refused
 * configuration lists every problem with its key. Build it with {@link #from}.
 */
public record RunnerConfig(
        Store store,
        Mailbox mailbox,
        Kafka kafka,
        EngineSettings engine,
        CodecLimits codecLimits,
        Set<String> referenceTypes,
        InboxSettings inbox,
        String cutoverWatermark,
        Duration pollInterval,
        ProcessingSettings processing,
        DispatchSettings dispatch,
        Duration dispatchInterval,
        Duration eventRetention,
        LifecycleSettings lifecycle,
        FlightHistorySettings history,
        RetentionJob.Settings retention,
        Set<ErrorClass> replayable,
        Http http,
        Duration backfillInterval,
        Duration housekeepingInterval,
        Duration standbyPoll,
        boolean responseGuard,
        Duration requestClockSkew,
        Duration requestTimeout,
        LocalTime dailyScheduleAt,
        RequestSettings requests,
        ReferenceSettings reference,
        LogFormat logFormat) {

    /** The store kinds: PostgreSQL (the reference store) and Oracle 11g (on site). */
    public enum StoreKind { PG, ORACLE }

    /** The JDBC URL prefix of each store kind; {@value #H2_URL_PREFIX} is accepted for Oracle as the tests' stand-in. */
    public static final String PG_URL_PREFIX = "jdbc:postgresql:";
    public static final String ORACLE_URL_PREFIX = "jdbc:oracle:";
    public static final String H2_URL_PREFIX = "jdbc:h2:";

    /** An Oracle schema name as the pool sets it (unquoted identifier, at most 30 characters in 11g). */
    private static final java.util.regex.Pattern ORACLE_SCHEMA = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9_$#]{0,29}");

    public record Store(StoreKind kind, String url, String user, String password, String schema, int poolSize) {

        /** Never shows the password, nor one written into the URL. */
        @Override
        public String toString() {
            return "Store[kind=" + kind + ", url=" + JdbcUrlMask.mask(url) + ", user=" + user + ", password="
                    + shown(password) + ", schema=" + schema + ", poolSize=" + poolSize + "]";
        }
    }

    public record Mailbox(String url, String user, String password, ZoneId zone, boolean readOnly,
                          int queryTimeoutSeconds, MailboxSchema schema) {

        /** Never shows the password, nor one written into the URL. */
        @Override
        public String toString() {
            return "Mailbox[url=" + JdbcUrlMask.mask(url) + ", user=" + user + ", password=" + shown(password)
                    + ", zone=" + zone + ", readOnly=" + readOnly + ", queryTimeoutSeconds=" + queryTimeoutSeconds
                    + ", schema=" + schema + "]";
        }
    }

    /** Kafka settings; {@code sink} is null when no bootstrap servers are configured (delivery then waits). */
    public record Kafka(KafkaSinkSettings sink) {
    }

    /** The HTTP API: the interface and port it listens on, the bearer token, the body limit, the readiness bound. */
    public record Http(String host, int port, String token, int maxBodyBytes, Duration readyTimeout) {

        /** Never shows the token. */
        @Override
        public String toString() {
            return "Http[host=" + host + ", port=" + port + ", token=" + shown(token) + ", maxBodyBytes="
                    + maxBodyBytes + ", readyTimeout=" + readyTimeout + "]";
        }
    }

    /** How a secret is shown: whether it is set, never what it is. */
    private static String shown(String secret) {
        return secret == null || secret.isEmpty() ? "(none)" : "(set)";
    }

    public static RunnerConfig from(ConfigSource source) {
        var s = new Settings(source);
        var zone = s.zone(Keys.AIRPORT_ZONE, OperationDayRule.DEFAULT_ZONE);
        var store = store(s, source);
        var mailboxSchema = s.checked(() -> new MailboxSchema(
                new MailboxSchema.Inbound(s.string(Keys.IN_TABLE, "CMINMSGS"), s.string(Keys.IN_ID, "CMINMSGS_ID"),
                        s.string(Keys.IN_CLOB, "CMINMSGS_CLOB_MSG"), s.string(Keys.IN_RECEIVED, "CMINMSGS_DATE_RECEIVED"),
                        s.string(Keys.IN_PROCESSED, "CMINMSGS_DATE_PROCESSED"),
                        s.string(Keys.IN_SUBSYSTEM_NAME, "CMINMSGS_SUBSYSTEM_NAME"),
                        s.string(Keys.IN_SUBSYSTEM_TYPE, "CMINMSGS_SUBSYSTEM_TYPE"),
                        s.string(Keys.IN_SUBSYSTEM_SUBTYPE, "CMINMSGS_SUBSYSTEM_SUBTYPE"),
                        s.string(Keys.IN_SUBSYSTEM_SEQUENCE, "CMINMSGS_SUBSYSTEM_SEQUENCE"),
                        s.string(Keys.IN_STATUS, "CMINMSGS_STATUS")),
                new MailboxSchema.Outbound(s.string(Keys.OUT_TABLE, "COUTMSGS"), s.string(Keys.OUT_ID, "COUTMSGS_ID"),
                        s.string(Keys.OUT_CLOB, "COUTMSGS_CLOB_MSG"), s.string(Keys.OUT_INSERTED, "COUTMSGS_DATE_INSERTED"),
                        s.string(Keys.OUT_SENT, "COUTMSGS_DATE_SENT"), s.string(Keys.OUT_ROUTING, "ROUTINGID"))));
        var mailbox = new Mailbox(
                s.required(Keys.MAILBOX_URL, "the shared mailbox's JDBC URL, e.g. jdbc:mysql://aodb:3306/sis"),
                s.string(Keys.MAILBOX_USER, "msgx"), s.string(Keys.MAILBOX_PASSWORD, ""), s.zone(Keys.MAILBOX_ZONE, zone),
                s.bool(Keys.MAILBOX_READ_ONLY, false),
                (int) s.duration(Keys.MAILBOX_QUERY_TIMEOUT, Duration.ofSeconds(10)).toSeconds(), mailboxSchema);

        var bootstrap = s.string(Keys.KAFKA_BOOTSTRAP, null);
        var producer = new TreeMap<String, String>();
        source.all().forEach((key, value) -> {
            if (key.startsWith(Keys.KAFKA_PRODUCER_PREFIX)) {
                producer.put(key.substring(Keys.KAFKA_PRODUCER_PREFIX.length()), value);
            }
        });
        var kafka = new Kafka(bootstrap == null ? null : s.checked(() -> new KafkaSinkSettings(bootstrap,
                s.string(Keys.KAFKA_CLIENT_ID, KafkaSinkSettings.DEFAULT_CLIENT_ID),
                s.string(Keys.KAFKA_TOPIC_MSG, KafkaSinkSettings.DEFAULT_MSG_TOPIC),
                s.string(Keys.KAFKA_TOPIC_SCHD, KafkaSinkSettings.DEFAULT_SCHD_TOPIC),
                s.string(Keys.KAFKA_TOPIC_REFERENCE, KafkaSinkSettings.DEFAULT_REFERENCE_TOPIC),
                s.duration(Keys.KAFKA_DELIVERY_TIMEOUT, KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT),
                s.duration(Keys.KAFKA_REQUEST_TIMEOUT, KafkaSinkSettings.DEFAULT_REQUEST_TIMEOUT),
                s.duration(Keys.KAFKA_MAX_BLOCK, KafkaSinkSettings.DEFAULT_MAX_BLOCK),
                s.duration(Keys.KAFKA_LINGER, KafkaSinkSettings.DEFAULT_LINGER), producer)));

        var engine = new EngineSettings(new OperationDayRule(zone, s.time(Keys.DAY_CUTOVER, LocalTime.MIDNIGHT)),
                s.choice(Keys.ABSENT_FIELDS, AbsentFieldPolicy.KEEP, AbsentFieldPolicy.class));
        var codec = s.checked(() -> new CodecLimits(
                s.integer(Keys.CODEC_MAX_BYTES, CodecLimits.DEFAULTS.maxMessageBytes(), 1024, 64 * 1024 * 1024),
                s.integer(Keys.CODEC_MAX_DEPTH, CodecLimits.DEFAULTS.maxElementDepth(), 8, 256),
                s.integer(Keys.CODEC_MAX_TEXT, CodecLimits.DEFAULTS.maxTextLength(), 1024, 16 * 1024 * 1024)));
        var referenceTypes = s.list(Keys.CODEC_REFERENCE_TYPES, MsgKind.DEFAULT_REFERENCE_TYPES.stream().sorted().toList())
                .stream().map(t -> t.toUpperCase(java.util.Locale.ROOT)).collect(Collectors.toUnmodifiableSet());

        var inbox = s.checked(() -> new InboxSettings(s.integer(Keys.CLAIM_BATCH, 200, 1, 10_000),
                s.duration(Keys.MAX_COMMIT_DELAY, Duration.ofSeconds(30))));
        var processingRetry = s.checked(() -> new RetryPolicy(RetryPolicy.PROCESSING,
                s.integer(Keys.RETRY_MAX_ATTEMPTS, 5, 1, 100),
                s.durations(Keys.RETRY_BACKOFF, RetryPolicy.processingDefaults().backoff())));
        var ignore = s.checked(() -> IgnoreRules.of(s.list(Keys.IGNORE, IgnoreRules.BASELINE)));
        var processing = processingRetry == null || ignore == null ? null : new ProcessingSettings(processingRetry, ignore,
                s.bool(Keys.IDENTITY_WITH_DAY, false), s.bool(Keys.REPLAY_CHANNEL, false),
                s.integer(Keys.GROUP_SIZE, ProcessingSettings.DEFAULT_GROUP_SIZE, 1, 1000),
                s.integer(Keys.FLIGHT_CACHE_SIZE, FlightCache.DEFAULT_CAPACITY, 0, 1_000_000));
        var deliveryRetry = s.checked(() -> new RetryPolicy(RetryPolicy.DELIVERY,
                s.integer(Keys.DISPATCH_MAX_ATTEMPTS, 8, 1, 100),
                s.durations(Keys.DISPATCH_BACKOFF, RetryPolicy.deliveryDefaults().backoff())));
        var dispatch = deliveryRetry == null ? null : s.checked(() -> new DispatchSettings(
                s.integer(Keys.DISPATCH_BATCH, 5_000, 1, 50_000), s.integer(Keys.SCHD_FLUSH_LIMIT, 5_000, 1, 50_000),
                deliveryRetry));
        var defaults = LifecycleSettings.defaults();
        var lifecycle = s.checked(() -> new LifecycleSettings(s.duration(Keys.BACKFILL_OVERDUE, defaults.backfillOverdue()),
                s.duration(Keys.RAW_RETENTION, defaults.rawRetention()), s.duration(Keys.DEDUP_MEMORY, defaults.dedupMemory()),
                s.duration(Keys.ARCHIVE_AFTER, defaults.archiveAfter()),
                s.duration(Keys.RETENTION_PROCESSING, defaults.processingHistory()),
                s.durations(Keys.BACKFILL_BACKOFF, defaults.backfillBackoff()),
                s.integer(Keys.BACKFILL_MAX_ATTEMPTS, defaults.backfillAlertAttempts(), 1, 1000),
                s.integer(Keys.BACKFILL_BATCH, defaults.backfillBatch(), 1, 10_000)));
        var historyDefaults = FlightHistorySettings.defaults();
        var history = s.checked(() -> new FlightHistorySettings(
                s.duration(Keys.HISTORY_DAY_RETENTION, historyDefaults.operationDayRetention()),
                s.duration(Keys.HISTORY_QUIET, historyDefaults.quietPeriod()),
                s.duration(Keys.HISTORY_UNPLACED, historyDefaults.unplacedRetention()), historyDefaults.batch()));
        var retentionDefaults = RetentionJob.Settings.defaults();
        var retention = s.checked(() -> new RetentionJob.Settings(
                s.duration(Keys.RETENTION_FLIGHTS, retentionDefaults.flightHistory()),
                s.duration(Keys.RETENTION_SCHEDULE_LOG, retentionDefaults.scheduleLog()),
                s.duration(Keys.RETENTION_REQUESTS, retentionDefaults.closedRequests()), retentionDefaults.batch()));
        var replayable = EnumSet.noneOf(ErrorClass.class);
        for (var name : s.list(Keys.REPLAY_CLASSES, ReplayService.DEFAULT_REPLAYABLE.stream().map(Enum::name).sorted().toList())) {
            try {
                replayable.add(ErrorClass.valueOf(name.toUpperCase(java.util.Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                s.problem(Keys.REPLAY_CLASSES + ": '" + name + "' is not an error class; expected some of "
                        + java.util.Arrays.toString(ErrorClass.values()));
            }
        }
        var http = new Http(s.string(Keys.HTTP_HOST, "0.0.0.0"), s.integer(Keys.HTTP_PORT, 8080, 0, 65535),
                s.string(Keys.HTTP_TOKEN, null), s.integer(Keys.HTTP_MAX_BODY, 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
                s.duration(Keys.HTTP_READY_TIMEOUT, Duration.ofSeconds(2)));

        var config = new RunnerConfig(store, mailbox, kafka, engine, codec, referenceTypes, inbox,
                s.string(Keys.CUTOVER_WATERMARK, null), s.duration(Keys.POLL_INTERVAL, Duration.ofMillis(200)),
                processing, dispatch, s.duration(Keys.DISPATCH_INTERVAL, Duration.ofMillis(500)),
                s.duration(Keys.EVENT_RETENTION, Duration.ofDays(7)), lifecycle, history, retention, replayable, http,
                s.duration(Keys.JOBS_BACKFILL, Duration.ofSeconds(10)),
                s.duration(Keys.JOBS_HOUSEKEEPING, Duration.ofMinutes(10)),
                s.duration(Keys.JOBS_STANDBY_POLL, Duration.ofSeconds(5)),
                s.bool(Keys.REQUESTS_RESP_GUARD, true), s.duration(Keys.REQUESTS_CLOCK_SKEW, Duration.ofMinutes(2)),
                s.duration(Keys.REQUESTS_TIMEOUT, Duration.ofMinutes(30)), s.time(Keys.REQUESTS_DAILY_AT, null),
                s.checked(() -> new RequestSettings(s.string(Keys.REQUESTS_SENDER, "RMS"),
                        s.string(Keys.REQUESTS_ROUTING_ID, "AODB"))),
                new ReferenceSettings(s.bool(Keys.REFERENCE_DNLD_REMOVES_ABSENT, false)),
                s.choice(Keys.LOG_FORMAT, LogFormat.TEXT, LogFormat.class));
        s.verify();
        return config;
    }

    /**
     * {@code msgx.store.*}: the URL must be one of the kind's ({@code jdbc:postgresql:} for pg; {@code jdbc:oracle:},
     * or {@code jdbc:h2:} for the tests' stand-in, for oracle). On Oracle the schema defaults to the store user's own.
     */
    private static Store store(Settings s, ConfigSource source) {
        var kind = s.choice(Keys.STORE_KIND, StoreKind.PG, StoreKind.class);
        var url = s.required(Keys.STORE_URL, kind == StoreKind.ORACLE
                ? "the store's JDBC URL, e.g. jdbc:oracle:thin:@//db:1521/ORCL"
                : "the store's JDBC URL, e.g. jdbc:postgresql://db:5432/msgx");
        var user = s.string(Keys.STORE_USER, "msgx");
        var schema = s.string(Keys.STORE_SCHEMA, kind == StoreKind.ORACLE ? user.toUpperCase(java.util.Locale.ROOT) : "msgx");
        // Only the URL's scheme is shown: an Oracle thin URL may carry a password (user/password@host).
        var given = url == null ? null : Keys.STORE_URL + " (from " + source.originOf(Keys.STORE_URL) + ") starts with '"
                + scheme(url) + "'";
        if (url != null && kind == StoreKind.ORACLE && !url.startsWith(ORACLE_URL_PREFIX) && !url.startsWith(H2_URL_PREFIX)) {
            s.problem(given + ": " + Keys.STORE_KIND + " is oracle, so expected an Oracle JDBC URL starting with "
                    + ORACLE_URL_PREFIX + ", e.g. jdbc:oracle:thin:@//db:1521/ORCL (" + H2_URL_PREFIX
                    + " is accepted for the H2 stand-in of the tests only)");
        } else if (url != null && kind == StoreKind.PG && !url.startsWith(PG_URL_PREFIX)) {
            s.problem(given + ": " + Keys.STORE_KIND + " is pg, so expected a PostgreSQL JDBC URL starting with "
                    + PG_URL_PREFIX + ", e.g. jdbc:postgresql://db:5432/msgx"
                    + (url.startsWith(ORACLE_URL_PREFIX) || url.startsWith(H2_URL_PREFIX)
                    ? "; for an Oracle store set " + Keys.STORE_KIND + "=oracle" : ""));
        }
        if (kind == StoreKind.ORACLE && !ORACLE_SCHEMA.matcher(schema).matches()) {
            var origin = s.string(Keys.STORE_SCHEMA, null) == null ? "not set: the store user's own schema"
                    : "from " + source.originOf(Keys.STORE_SCHEMA);
            s.problem(Keys.STORE_SCHEMA + " = '" + schema + "' (" + origin + "): expected "
                    + "an Oracle schema name (a letter, then letters, digits, _, $ or #; at most 30 characters)");
        }
        return new Store(kind, url, user, s.string(Keys.STORE_PASSWORD, ""), schema,
                s.integer(Keys.STORE_POOL_SIZE, 8, 2, 64));
    }

    /** {@code jdbc:oracle:} of {@code jdbc:oracle:thin:@//db:1521/ORCL}; the whole text when it has no such part. */
    private static String scheme(String url) {
        int end = url.indexOf(':', url.startsWith("jdbc:") ? 5 : 0);
        return end < 0 ? url : url.substring(0, end + 1);
    }

    /** The effective settings for the start-up log, secrets masked (passwords written into a URL too). */
    public Map<String, String> describe() {
        var shown = new LinkedHashMap<String, String>();
        shown.put(Keys.STORE_KIND, store.kind().name().toLowerCase(java.util.Locale.ROOT));
        shown.put(Keys.STORE_URL, JdbcUrlMask.mask(store.url()));
        shown.put(Keys.STORE_USER, store.user());
        shown.put(Keys.STORE_PASSWORD, shown(store.password()));
        shown.put(Keys.STORE_SCHEMA, store.schema());
        shown.put(Keys.MAILBOX_URL, JdbcUrlMask.mask(mailbox.url()));
        shown.put(Keys.MAILBOX_USER, mailbox.user());
        shown.put(Keys.MAILBOX_PASSWORD, shown(mailbox.password()));
        shown.put(Keys.MAILBOX_READ_ONLY, Boolean.toString(mailbox.readOnly()));
        shown.put(Keys.KAFKA_BOOTSTRAP, kafka.sink() == null ? "(none: events wait in the outbox)" : kafka.sink().bootstrapServers());
        shown.put(Keys.AIRPORT_ZONE, engine.operationDayRule().airportZone().getId());
        shown.put(Keys.CLAIM_BATCH, Integer.toString(inbox.claimBatch()));
        shown.put(Keys.MAX_COMMIT_DELAY, inbox.maxCommitDelay().toString());
        shown.put(Keys.HTTP_PORT, Integer.toString(http.port()));
        shown.put(Keys.HTTP_TOKEN, http.token() == null ? "(none: compatibility entry off)" : "(set)");
        shown.put(Keys.LOG_FORMAT, logFormat.name().toLowerCase(java.util.Locale.ROOT));
        return shown;
    }
}
