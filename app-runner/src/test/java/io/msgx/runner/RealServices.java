package io.msgx.runner;

import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.oracle.OracleTestDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig.StoreKind;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The real parts for one end-to-end test: a fresh MariaDB database holding the mailbox tables exactly as
 * sis-format §1 defines them, and a fresh, migrated store of the kind asked: a PostgreSQL schema (the default), or
 * an Oracle schema through {@link OracleTestDatabase} (H2 in {@code MODE=Oracle} in the default build, a real Oracle
 * when {@code MSGX_TEST_ORACLE_URL} is set). Both are dropped after the test.
 */
public final class RealServices implements BeforeEachCallback, AfterEachCallback {

    /** The PostgreSQL schema; null when the store is Oracle. */
    public final PgTestDatabase postgres;
    /** The Oracle schema; null when the store is PostgreSQL. */
    final OracleTestDatabase oracle;
    private final StoreKind kind;
    private TestMailboxDatabase mariadb;
    private JdbcMailbox mailbox;

    /** With a migrated PostgreSQL store. */
    public RealServices() {
        this(StoreKind.PG, false);
    }

    private RealServices(StoreKind kind, boolean unmigrated) {
        this.kind = kind;
        this.postgres = kind == StoreKind.PG ? new PgTestDatabase() : null;
        this.oracle = kind == StoreKind.ORACLE ? unmigrated ? OracleTestDatabase.unmigrated() : new OracleTestDatabase()
                : null;
    }

    /** With a migrated store of {@code kind}. */
    static RealServices on(StoreKind kind) {
        return new RealServices(kind, false);
    }

    /** With an Oracle store left unmigrated on H2 (a real Oracle's is migrated once per run whatever this says). */
    static RealServices onUnmigratedOracle() {
        return new RealServices(StoreKind.ORACLE, true);
    }

    StoreKind kind() {
        return kind;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (postgres != null) {
            postgres.beforeEach(context);
        } else {
            oracle.beforeEach(context);
        }
        mariadb = TestMailboxDatabase.create();
        try (var connection = mariadb.connect()) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
        mailbox = new JdbcMailbox(mariadb.dataSource(), MailboxSchema.defaults(), ZoneId.of("Asia/Shanghai"), 10);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            mariadb.close();
        } finally {
            if (postgres != null) {
                postgres.afterEach(context);
            } else {
                oracle.afterEach(context);
            }
        }
    }

    /**
     * The {@code msgx.store.*} keys a runner needs for this test's store: kind, URL, user, password and, on
     * PostgreSQL, the schema (on Oracle the user's own schema is the store's).
     */
    Map<String, String> storeKeys() {
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_KIND, kind.name().toLowerCase(java.util.Locale.ROOT));
        if (postgres != null) {
            keys.put(Keys.STORE_URL, PgTestDatabase.URL);
            keys.put(Keys.STORE_USER, PgTestDatabase.USER);
            keys.put(Keys.STORE_SCHEMA, postgres.schema());
            if (!PgTestDatabase.PASSWORD.isEmpty()) {
                keys.put(Keys.STORE_PASSWORD, PgTestDatabase.PASSWORD);
            }
        } else {
            keys.put(Keys.STORE_URL, oracle.jdbcUrl());
            keys.put(Keys.STORE_USER, oracle.user());
            if (!oracle.password().isEmpty()) {
                keys.put(Keys.STORE_PASSWORD, oracle.password());
            }
        }
        return keys;
    }

    /**
     * {@link #storeKeys()} and this test's mailbox, read as the test server's administrator, without Kafka on purpose
     * ({@code msgx.kafka.enabled=false}: events wait in the outbox): what every runner here that does not deliver is
     * configured with.
     */
    public Map<String, String> runnerKeys() {
        var keys = storeKeys();
        keys.put(Keys.MAILBOX_URL, mailboxUrl());
        keys.put(Keys.MAILBOX_USER, TestMailboxDatabase.server().user());
        if (!TestMailboxDatabase.server().password().isEmpty()) {
            keys.put(Keys.MAILBOX_PASSWORD, TestMailboxDatabase.server().password());
        }
        keys.put(Keys.KAFKA_ENABLED, "false");
        return keys;
    }

    /**
     * The three topic keys, each naming a topic of its own created now on the in-process test broker, as the cluster
     * provides them (D-71): {@code msg} plain, {@code schd} and {@code reference} compacted, one partition each.
     */
    public static Map<String, String> freshTopics(String prefix) {
        var topics = new java.util.LinkedHashMap<String, String>();
        topics.put(Keys.KAFKA_TOPIC_MSG, io.msgx.adapter.kafka.KafkaTestBroker.uniqueTopic(prefix + "-msg"));
        topics.put(Keys.KAFKA_TOPIC_SCHD, io.msgx.adapter.kafka.KafkaTestBroker.uniqueTopic(prefix + "-schd"));
        topics.put(Keys.KAFKA_TOPIC_REFERENCE, io.msgx.adapter.kafka.KafkaTestBroker.uniqueTopic(prefix + "-reference"));
        io.msgx.adapter.kafka.KafkaTestBroker.createTopics(1, topics.get(Keys.KAFKA_TOPIC_MSG));
        io.msgx.adapter.kafka.KafkaTestBroker.createCompactedTopics(1, topics.get(Keys.KAFKA_TOPIC_SCHD),
                topics.get(Keys.KAFKA_TOPIC_REFERENCE));
        return topics;
    }

    /** {@link #runnerKeys()} delivering to the in-process test broker (the caller creates the topics it names). */
    public Map<String, String> runnerKeysWithKafka() {
        var keys = runnerKeys();
        keys.remove(Keys.KAFKA_ENABLED);
        keys.put(Keys.KAFKA_BOOTSTRAP, io.msgx.adapter.kafka.KafkaTestBroker.bootstrapServers());
        return keys;
    }

    /** The JDBC URL of this test's mailbox database, as a runner's configuration would name it. */
    String mailboxUrl() {
        return mariadb.url() + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
    }

    public JdbcMailbox mailbox() {
        return mailbox;
    }

    PipelineStore store(SettableClock clock) {
        return postgres != null ? postgres.store(clock) : oracle.store(clock);
    }

    /** Pooled, auto-commit connections to this test's store, whichever its kind. */
    public DataSource storeDataSource() {
        return postgres != null ? postgres.dataSource() : oracle.dataSource();
    }

    /** A connection to the mailbox database, as the AODB side would hold one. */
    public Connection aodbConnection() throws SQLException {
        return mariadb.connect();
    }

    /** Insert an inbound row as the AODB side does, committed; returns its ID. */
    long deliver(String xml) throws SQLException {
        try (var connection = aodbConnection()) {
            return TestMailboxDatabase.insertInbound(connection, xml);
        }
    }

    /**
     * Insert an inbound row with the mailbox status {@code status} ({@code null}: NULL) as the AODB side does, committed;
     * returns its ID.
     */
    long deliver(String xml, String status) throws SQLException {
        try (var connection = aodbConnection();
             var insert = connection.prepareStatement("INSERT INTO CMINMSGS (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED,"
                     + " CMINMSGS_STATUS) VALUES (?, NOW(3), ?)", java.sql.Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, xml);
            insert.setString(2, status);
            insert.executeUpdate();
            try (var keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** A single number from our store, e.g. a count (SQL both stores read alike: unquoted names, plain predicates). */
    long countInStore(String sql) throws SQLException {
        try (var connection = storeDataSource().getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** {@link #countInStore} for the tests that run on PostgreSQL only. */
    public long countInPostgres(String sql) throws SQLException {
        if (postgres == null) {
            throw new IllegalStateException("this test's store is " + kind + ", not PostgreSQL: use countInStore");
        }
        return countInStore(sql);
    }
}
