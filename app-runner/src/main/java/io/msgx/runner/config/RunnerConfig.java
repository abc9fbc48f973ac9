package io.msgx.runner.config;

import io.msgx.adapter.kafka.InstanceName;
import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.domain.engine.AbsentFieldPolicy;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.ListMode;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.codec.CodecLimits;
import io.msgx.pipeline.codec.MsgKind;
import io.msgx.pipeline.delivery.DispatchSettings;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.lifecycle.FlightHistorySettings;
import io.msgx.pipeline.lifecycle.LifecycleSettings;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.lifecycle.RetentionJob;
import io.msgx.pipeline.mailbox.AcceptedStatuses;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.pump.IgnoreRules;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.pump.ReferenceSettings;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.request.RequestSettings;
import io.msgx.pipeline.request.SeqnCycle;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.runner.http.HttpSettings;
import io.msgx.runner.logging.LogFormat;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
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
        HttpSettings http,
        Duration backfillInterval,
        Duration housekeepingInterval,
        Duration standbyPoll,
        boolean responseGuard,
        Duration requestClockSkew,
        Duration requestTimeout,
        LocalTime dailyScheduleAt,
        RequestSettings requests,
        ReferenceSettings reference,
        Health health,
        LogFormat logFormat,
        boolean acceptIdentityChange,
        Lease lease) {

    /**
     * The leader lease (D-108): a renewal keeps it {@code duration}; the holder renews it every {@code renewInterval};
     * on PostgreSQL the server ends a transaction left idle for {@code idleTransactionTimeout} (a frozen holder's),
     * so a take-over waits for its locks no longer than that (0: off). A standby takes over at most about
     * {@code duration} + {@code msgx.jobs.standby-poll} after the holder's last renewal.
     */
    public record Lease(Duration duration, Duration renewInterval, Duration idleTransactionTimeout) {
    }

    /** The store kinds: PostgreSQL (the reference store) and Oracle 11g (on site). */
    public enum StoreKind { PG, ORACLE }

    /** The JDBC URL prefix of each store kind; {@value #H2_URL_PREFIX} is accepted for Oracle as the tests' stand-in. */
    public static final String PG_URL_PREFIX = "jdbc:postgresql:";
    public static final String ORACLE_URL_PREFIX = "jdbc:oracle:";
    public static final String H2_URL_PREFIX = "jdbc:h2:";

    /**
     * A store statement may run this long on the server before it is cancelled (D-73): far above the longest statement
     * of a healthy pipeline (a group's transaction, a housekeeping batch: well under a second to a few seconds), far
     * below the time an operator notices a frozen pump.
     */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(60);
    /** The client waits this long for an answer of the store's server before it drops the connection (D-73). */
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(90);

    /**
     * The store's connection settings. {@code statementTimeout} bounds one statement on the server (PostgreSQL's
     * {@code statement_timeout}), {@code socketTimeout} one wait for the server's answer on the client (PostgreSQL's
     * {@code socketTimeout}, Oracle's {@code oracle.jdbc.ReadTimeout}): a session blocked by a lock or a server that
     * stops answering fails as an outage instead of freezing the pump (D-73). {@link Duration#ZERO} turns either off.
     */
    public record Store(StoreKind kind, String url, String user, String password, String schema, int poolSize,
                        Duration statementTimeout, Duration socketTimeout) {

        /** Never shows the password, nor one written into the URL. */
        @Override
        public String toString() {
            return "Store[kind=" + kind + ", url=" + JdbcUrlMask.mask(url) + ", user=" + user + ", password="
                    + shown(password) + ", schema=" + schema + ", poolSize=" + poolSize + ", statementTimeout="
                    + statementTimeout + ", socketTimeout=" + socketTimeout + "]";
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

    /**
     * Kafka settings. Kafka is required (D-71): {@code enabled} is false only when {@code msgx.kafka.enabled=false} was
     * set on purpose, and then {@code sink} is null and events wait in the outbox; otherwise {@code sink} is the
     * validated sink (a missing {@code msgx.kafka.bootstrap-servers} refuses the configuration).
     */
    public record Kafka(boolean enabled, KafkaSinkSettings sink) {
    }

    /**
     * What {@code /health/live} allows (D-70): a job is stale when it gave no sign of life (a run started, ended, or
     * made progress) for {@code livenessPeriods} of its periods, and never sooner than {@code livenessGrace}.
     */
    public record Health(int livenessPeriods, Duration livenessGrace) {
    }

    /** How a secret is shown: whether it is set, never what it is. */
    private static String shown(String secret) {
        return secret == null || secret.isEmpty() ? "(none)" : "(set)";
    }

    public static RunnerConfig from(ConfigSource source) {
        var s = new ConfigReader(source);
        var config = read(source, s);
        s.verify();
        return config;
    }

    /**
     * The effective configuration of {@code source} and every problem in it, without refusing it: what
     * {@code config check} prints. Each known key is listed with its value (secrets masked, passwords in URLs too)
     * and where it came from; keys under an open prefix are listed when given.
     */
    public static ConfigReport check(ConfigSource source) {
        var s = new ConfigReader(source);
        try {
            read(source, s);
        } catch (RuntimeException e) {
            s.problem(e.getMessage());
        }
        var entries = new java.util.ArrayList<ConfigReport.Entry>();
        var effective = s.effective();
        var keys = new java.util.ArrayList<>(Keys.ALL);
        source.all().keySet().stream().filter(key -> !Keys.ALL.contains(key) && Keys.known(key)).sorted().forEach(keys::add);
        for (var key : keys) {
            String value = effective.containsKey(key) ? effective.get(key) : source.get(key);
            String shownValue;
            if (Keys.secret(key)) {
                shownValue = shown(value);
            } else if (value != null && key.endsWith(".url")) {
                shownValue = JdbcUrlMask.mask(value);
            } else {
                shownValue = value;
            }
            entries.add(new ConfigReport.Entry(key, shownValue, source.originOf(key)));
        }
        return new ConfigReport(entries, s.problems());
    }

    private static RunnerConfig read(ConfigSource source, ConfigReader s) {
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

        var kafkaEnabled = s.bool(Keys.KAFKA_ENABLED, true);
        var bootstrap = kafkaEnabled ? s.required(Keys.KAFKA_BOOTSTRAP, "the Kafka cluster the events are published "
                + "to, e.g. kafka1:9092,kafka2:9092; to run without publishing on purpose (a test, a trial), set "
                + Keys.KAFKA_ENABLED + "=false") : null;
        var producer = new TreeMap<String, String>();
        source.all().forEach((key, value) -> {
            if (key.startsWith(Keys.KAFKA_PRODUCER_PREFIX)) {
                producer.put(key.substring(Keys.KAFKA_PRODUCER_PREFIX.length()), value);
            }
        });
        var kafka = new Kafka(kafkaEnabled, bootstrap == null ? null : s.checked(() -> new KafkaSinkSettings(bootstrap,
                s.string(Keys.KAFKA_CLIENT_ID, KafkaSinkSettings.DEFAULT_CLIENT_ID),
                s.string(Keys.KAFKA_TOPIC_MSG, KafkaSinkSettings.DEFAULT_MSG_TOPIC),
                s.string(Keys.KAFKA_TOPIC_SCHD, KafkaSinkSettings.DEFAULT_SCHD_TOPIC),
                s.string(Keys.KAFKA_TOPIC_REFERENCE, KafkaSinkSettings.DEFAULT_REFERENCE_TOPIC),
                s.duration(Keys.KAFKA_DELIVERY_TIMEOUT, KafkaSinkSettings.DEFAULT_DELIVERY_TIMEOUT),
                s.duration(Keys.KAFKA_REQUEST_TIMEOUT, KafkaSinkSettings.DEFAULT_REQUEST_TIMEOUT),
                s.duration(Keys.KAFKA_MAX_BLOCK, KafkaSinkSettings.DEFAULT_MAX_BLOCK),
                s.duration(Keys.KAFKA_LINGER, KafkaSinkSettings.DEFAULT_LINGER), producer,
                KafkaSinkSettings.eventSource(s.string(Keys.SITE, KafkaSinkSettings.DEFAULT_SITE),
                        s.string(Keys.INSTANCE, InstanceName.ofThisHost())))));

        var engine = new EngineSettings(new OperationDayRule(zone, s.time(Keys.DAY_CUTOVER, LocalTime.MIDNIGHT)),
                s.choice(Keys.ABSENT_FIELDS, AbsentFieldPolicy.KEEP, AbsentFieldPolicy.class), listModes(s));
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
        var acceptedStatuses = s.checked(() -> AcceptedStatuses.of(
                s.listOrEmpty(Keys.MAILBOX_ACCEPTED_STATUSES, AcceptedStatuses.DEFAULT)));
        var processing = processingRetry == null || ignore == null || acceptedStatuses == null ? null
                : new ProcessingSettings(processingRetry, ignore,
                s.bool(Keys.IDENTITY_WITH_DAY, false), s.bool(Keys.REPLAY_CHANNEL, false),
                s.integer(Keys.GROUP_SIZE, ProcessingSettings.DEFAULT_GROUP_SIZE, 1, 1000),
                s.integer(Keys.FLIGHT_CACHE_SIZE, FlightCache.DEFAULT_CAPACITY, 0, 1_000_000),
                s.integer(Keys.IDENTITY_SEQN_RESET_WINDOW, (int) ProcessingSettings.DEFAULT_SEQN_RESET_WINDOW, 1,
                        Integer.MAX_VALUE), acceptedStatuses);
        var deliveryRetry = s.checked(() -> new RetryPolicy(RetryPolicy.DELIVERY,
                s.integer(Keys.DISPATCH_MAX_ATTEMPTS, RetryPolicy.deliveryDefaults().maxAttempts(), 1, 100),
                s.durations(Keys.DISPATCH_BACKOFF, RetryPolicy.deliveryDefaults().backoff())));
        var dispatch = deliveryRetry == null ? null : s.checked(() -> new DispatchSettings(
                s.integer(Keys.DISPATCH_BATCH, DispatchSettings.DEFAULT_NOTIFICATION_BATCH, 1, 50_000),
                s.integer(Keys.SCHD_FLUSH_LIMIT, DispatchSettings.DEFAULT_FLUSH_LIMIT, 1, 50_000),
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
                s.duration(Keys.RETENTION_REQUESTS, retentionDefaults.closedRequests()),
                s.duration(Keys.AUDIT_RETENTION, retentionDefaults.operatorAudit()), retentionDefaults.batch()));
        var replayable = EnumSet.noneOf(ErrorClass.class);
        for (var name : s.list(Keys.REPLAY_CLASSES, ReplayService.DEFAULT_REPLAYABLE.stream().map(Enum::name).sorted().toList())) {
            try {
                replayable.add(ErrorClass.valueOf(name.toUpperCase(java.util.Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                s.problem(Keys.REPLAY_CLASSES + ": '" + name + "' is not an error class; expected some of "
                        + java.util.Arrays.toString(ErrorClass.values()));
            }
        }
        var http = HttpSettings.read(s);

        var config = new RunnerConfig(store, mailbox, kafka, engine, codec, referenceTypes, inbox,
                s.string(Keys.CUTOVER_WATERMARK, null), s.duration(Keys.POLL_INTERVAL, Duration.ofMillis(200)),
                processing, dispatch, s.duration(Keys.DISPATCH_INTERVAL, Duration.ofMillis(500)),
                s.duration(Keys.EVENT_RETENTION, Duration.ofDays(7)), lifecycle, history, retention, replayable, http,
                s.duration(Keys.JOBS_BACKFILL, Duration.ofSeconds(10)),
                s.duration(Keys.JOBS_HOUSEKEEPING, Duration.ofMinutes(10)),
                s.duration(Keys.JOBS_STANDBY_POLL, Duration.ofSeconds(5)),
                s.bool(Keys.REQUESTS_RESP_GUARD, true), s.duration(Keys.REQUESTS_CLOCK_SKEW, Duration.ofMinutes(2)),
                s.duration(Keys.REQUESTS_TIMEOUT, Duration.ofMinutes(30)), s.time(Keys.REQUESTS_DAILY_AT, null),
                requests(s),
                new ReferenceSettings(s.bool(Keys.REFERENCE_DNLD_REMOVES_ABSENT, false)),
                new Health(s.integer(Keys.HEALTH_LIVENESS_PERIODS, 10, 2, 1000),
                        s.duration(Keys.HEALTH_LIVENESS_GRACE, Duration.ofMinutes(5))),
                s.choice(Keys.LOG_FORMAT, LogFormat.TEXT, LogFormat.class),
                s.bool(Keys.IDENTITY_ACCEPT_CHANGE, false), lease(s, source));
        return config;
    }

    /**
     * {@code msgx.requests.*} of how a request is written: one routing ID ({@code routing-id}, version 2 of the
     * contract) is the default of each kind's own ({@code schedule-routing-id}, {@code reference-routing-id}); the
     * width of our {@code SEQN}; the {@code xsi} schema location on {@code MSG} (empty: none).
     */
    /**
     * {@value Keys#LISTS_MERGED_BY_KEY}: the lists a {@code FLOP} merges into by key instead of replacing (D-119); each
     * must be one that has a key ({@code DELY}, {@code ERUT}, {@code SRVT}, {@code VIPF}).
     */
    private static Map<FlightList, ListMode> listModes(ConfigReader s) {
        var modes = new EnumMap<FlightList, ListMode>(FlightList.class);
        for (var code : s.list(Keys.LISTS_MERGED_BY_KEY, List.of())) {
            var list = FlightList.byCode(code.toUpperCase(java.util.Locale.ROOT))
                    .filter(l -> ListMode.mergeKey(l).isPresent());
            if (list.isEmpty()) {
                s.problem(Keys.LISTS_MERGED_BY_KEY + ": '" + code + "' is not a list that can be merged by key; expected "
                        + "some of DELY, ERUT, SRVT, VIPF");
            } else {
                modes.put(list.get(), ListMode.MERGE_BY_KEY);
            }
        }
        return modes;
    }

    private static RequestSettings requests(ConfigReader s) {
        var routingId = s.string(Keys.REQUESTS_ROUTING_ID, "AODB");
        if (routingId.length() > RequestSettings.MAX_ROUTING_ID_LENGTH) {
            s.problem(Keys.REQUESTS_ROUTING_ID + " must be 1 to " + RequestSettings.MAX_ROUTING_ID_LENGTH
                    + " characters (the width of COUTMSGS.ROUTINGID), got '" + routingId + "'");
            return null;
        }
        return s.checked(() -> new RequestSettings(s.string(Keys.REQUESTS_SENDER, "RMS"),
                s.string(Keys.REQUESTS_SCHEDULE_ROUTING_ID, routingId),
                s.string(Keys.REQUESTS_REFERENCE_ROUTING_ID, routingId),
                new SeqnCycle(s.integer(Keys.REQUESTS_SEQN_WIDTH, SeqnCycle.DEFAULT_WIDTH, 1, SeqnCycle.MAX_WIDTH)),
                s.string(Keys.REQUESTS_SCHEMA_LOCATION, "")));
    }

    /**
     * {@code msgx.store.*}: the URL must be one of the kind's ({@code jdbc:postgresql:} for pg; {@code jdbc:oracle:},
     * or {@code jdbc:h2:} for the tests' stand-in, for oracle). On Oracle the schema defaults to the store user's own.
     */
    private static Store store(ConfigReader s, ConfigSource source) {
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
        if (kind == StoreKind.ORACLE && !io.msgx.adapter.oracle.OracleSchema.NAME.matcher(schema).matches()) {
            var origin = s.string(Keys.STORE_SCHEMA, null) == null ? "not set: the store user's own schema"
                    : "from " + source.originOf(Keys.STORE_SCHEMA);
            s.problem(Keys.STORE_SCHEMA + " = '" + schema + "' (" + origin + "): expected "
                    + "an Oracle schema name (a letter, then letters, digits, _, $ or #; at most 30 characters)");
        }
        var statementTimeout = s.duration(Keys.STORE_STATEMENT_TIMEOUT, DEFAULT_STATEMENT_TIMEOUT);
        var socketTimeout = s.duration(Keys.STORE_SOCKET_TIMEOUT, DEFAULT_SOCKET_TIMEOUT);
        if (statementTimeout.isNegative() || socketTimeout.isNegative()) {
            s.problem(Keys.STORE_STATEMENT_TIMEOUT + " and " + Keys.STORE_SOCKET_TIMEOUT + ": expected durations of 0 "
                    + "(off) or more");
        } else if (!socketTimeout.isZero() && !statementTimeout.isZero()
                && socketTimeout.compareTo(statementTimeout.plusSeconds(5)) < 0) {
            s.problem(Keys.STORE_SOCKET_TIMEOUT + " = " + ConfigReader.written(socketTimeout) + " (from " + source.originOf(Keys.STORE_SOCKET_TIMEOUT)
                    + "): expected at least 5 s more than " + Keys.STORE_STATEMENT_TIMEOUT + " (" + ConfigReader.written(statementTimeout)
                    + "), or 0 (off): the server cancels a long statement cleanly and the session stays usable; a "
                    + "socket timeout drops the connection, and should only end a session whose server stopped answering");
        }
        return new Store(kind, url, user, s.string(Keys.STORE_PASSWORD, ""), schema,
                s.integer(Keys.STORE_POOL_SIZE, 8, 2, 64), statementTimeout, socketTimeout);
    }

    /**
     * {@code msgx.lease.*} and the idle-transaction bound: the duration at least 2 s, the renewal at most a third of it
     * (two renewals may fail before the lease runs out), the idle bound 0 (off) or at least 1 s.
     */
    private static Lease lease(ConfigReader s, ConfigSource source) {
        var duration = s.duration(Keys.LEASE_DURATION, Duration.ofSeconds(15));
        var renew = s.duration(Keys.LEASE_RENEW_INTERVAL, Duration.ofSeconds(5));
        var idle = s.duration(Keys.STORE_IDLE_TRANSACTION_TIMEOUT, Duration.ofSeconds(10));
        if (duration.compareTo(Duration.ofSeconds(2)) < 0) {
            s.problem(Keys.LEASE_DURATION + " = " + ConfigReader.written(duration) + " (from "
                    + source.originOf(Keys.LEASE_DURATION) + "): expected at least 2s");
        } else if (renew.isNegative() || renew.isZero() || renew.multipliedBy(3).compareTo(duration) > 0) {
            s.problem(Keys.LEASE_RENEW_INTERVAL + " = " + ConfigReader.written(renew) + " (from "
                    + source.originOf(Keys.LEASE_RENEW_INTERVAL) + "): expected more than 0 and at most a third of "
                    + Keys.LEASE_DURATION + " (" + ConfigReader.written(duration) + "), so that two renewals may fail "
                    + "before the lease runs out");
        }
        if (idle.isNegative() || (!idle.isZero() && idle.compareTo(Duration.ofSeconds(1)) < 0)) {
            s.problem(Keys.STORE_IDLE_TRANSACTION_TIMEOUT + " = " + ConfigReader.written(idle) + " (from "
                    + source.originOf(Keys.STORE_IDLE_TRANSACTION_TIMEOUT) + "): expected 0 (off) or at least 1s");
        }
        return new Lease(duration, renew, idle);
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
        shown.put(Keys.STORE_STATEMENT_TIMEOUT, ConfigReader.written(store.statementTimeout()));
        shown.put(Keys.STORE_SOCKET_TIMEOUT, ConfigReader.written(store.socketTimeout()));
        shown.put(Keys.STORE_IDLE_TRANSACTION_TIMEOUT, ConfigReader.written(lease.idleTransactionTimeout()));
        shown.put(Keys.LEASE_DURATION, ConfigReader.written(lease.duration()));
        shown.put(Keys.LEASE_RENEW_INTERVAL, ConfigReader.written(lease.renewInterval()));
        shown.put(Keys.MAILBOX_URL, JdbcUrlMask.mask(mailbox.url()));
        shown.put(Keys.MAILBOX_USER, mailbox.user());
        shown.put(Keys.MAILBOX_PASSWORD, shown(mailbox.password()));
        shown.put(Keys.MAILBOX_READ_ONLY, Boolean.toString(mailbox.readOnly()));
        shown.put(Keys.MAILBOX_ACCEPTED_STATUSES, processing.acceptedStatuses().off()
                ? "(empty: the status check is off, every row is a message)"
                : String.join(",", processing.acceptedStatuses().statuses()) + " (and NULL)");
        shown.put(Keys.KAFKA_BOOTSTRAP, kafka.sink() == null ? "(none: " + Keys.KAFKA_ENABLED + "=false, events wait in the outbox)"
                : kafka.sink().bootstrapServers());
        shown.put(Keys.AIRPORT_ZONE, engine.operationDayRule().airportZone().getId());
        shown.put(Keys.CLAIM_BATCH, Integer.toString(inbox.claimBatch()));
        shown.put(Keys.MAX_COMMIT_DELAY, inbox.maxCommitDelay().toString());
        shown.put(Keys.HTTP_PORT, Integer.toString(http.port()));
        shown.put(Keys.HTTP_TOKEN, http.token() == null ? "(none)" : "(set; deprecated: use " + Keys.HTTP_CREDENTIALS_FILE
                + ")");
        shown.put(Keys.HTTP_CREDENTIALS_FILE, http.credentialsFile() == null
                ? "(none: only health" + (http.metricsOpen() ? " and metrics" : "") + " answer)"
                : http.credentialsFile().toString());
        shown.put(Keys.HTTP_TLS_KEYSTORE, http.tls() == null ? "(none: plain HTTP)" : http.tls().keystore().toString());
        shown.put(Keys.LOG_FORMAT, logFormat.name().toLowerCase(java.util.Locale.ROOT));
        return shown;
    }
}
