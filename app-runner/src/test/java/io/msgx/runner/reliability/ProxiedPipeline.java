package io.msgx.runner.reliability;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * The whole runner ({@link MsgExchange} with its job threads and its HTTP side) on the real servers, with PostgreSQL
 * and the MariaDB mailbox reached through a {@link ToxicProxy} each, and Kafka on the shared in-process test broker.
 * A test takes a service away from the pipeline with the proxy (or stops the broker) while the AODB side keeps
 * writing straight into {@code CMINMSGS}, and checks the outcome through its own, direct connections.
 *
 * <p>Like the other end-to-end tests it creates its own PostgreSQL schema ({@link PgTestDatabase}), MariaDB database
 * ({@link TestMailboxDatabase}) and topics, and drops the databases afterwards.
 */
final class ProxiedPipeline implements BeforeEachCallback, AfterEachCallback {

    /** The intake period of these tests; "two poll intervals" are measured against it. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    final PgTestDatabase postgres = new PgTestDatabase();
    private TestMailboxDatabase mariadb;
    private JdbcMailbox aodbSide;
    ToxicProxy postgresProxy;
    ToxicProxy mailboxProxy;
    String msgTopic;
    String schdTopic;
    String referenceTopic;
    private MsgExchange exchange;
    private HttpApi http;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        postgres.beforeEach(context);
        mariadb = TestMailboxDatabase.create();
        try (var connection = mariadb.connect()) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
        aodbSide = new JdbcMailbox(mariadb.dataSource(), MailboxSchema.defaults(), ZoneId.of("Asia/Shanghai"), 10);
        postgresProxy = ToxicProxy.inFrontOf(PgTestDatabase.URL, 5432);
        mailboxProxy = ToxicProxy.inFrontOf(TestMailboxDatabase.serverUrl(), 3306);
        msgTopic = KafkaTestBroker.uniqueTopic("msg");
        schdTopic = KafkaTestBroker.uniqueTopic("schd");
        referenceTopic = KafkaTestBroker.uniqueTopic("reference");
        KafkaTestBroker.createTopics(3, msgTopic);
        KafkaTestBroker.createCompactedTopics(3, schdTopic, referenceTopic);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            if (http != null) {
                http.stop(Duration.ZERO);
            }
            if (exchange != null) {
                exchange.close();
            }
        } finally {
            postgresProxy.close();
            mailboxProxy.close();
            mariadb.close();
            postgres.afterEach(context);
        }
    }

    /**
     * Start the runner through the proxies with the keys of these tests (poll interval {@link #POLL_INTERVAL}, a
     * 1 s lease check) and {@code extra}, and wait until it is active.
     */
    MsgExchange start(Map<String, String> extra) throws InterruptedException {
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_URL, "jdbc:postgresql://127.0.0.1:" + postgresProxy.port() + "/" + ToxicProxy.databaseOf(PgTestDatabase.URL)
                // sslmode=disable: the proxy cuts when it sees a statement's text, which TLS would hide (the local
                // PostgreSQL has TLS on since issue 36, and the driver prefers it).
                + "?connectTimeout=5&socketTimeout=30&sslmode=disable");
        keys.put(Keys.STORE_USER, PgTestDatabase.USER);
        if (!PgTestDatabase.PASSWORD.isEmpty()) {
            keys.put(Keys.STORE_PASSWORD, PgTestDatabase.PASSWORD);
        }
        keys.put(Keys.STORE_SCHEMA, postgres.schema());
        keys.put(Keys.MAILBOX_URL, "jdbc:mysql://127.0.0.1:" + mailboxProxy.port() + "/" + mariadb.name()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8"
                + "&connectTimeout=5000&socketTimeout=30000");
        keys.put(Keys.MAILBOX_USER, TestMailboxDatabase.server().user());
        keys.put(Keys.MAILBOX_PASSWORD, TestMailboxDatabase.server().password());
        keys.put(Keys.KAFKA_BOOTSTRAP, KafkaTestBroker.bootstrapServers());
        keys.put(Keys.KAFKA_TOPIC_MSG, msgTopic);
        keys.put(Keys.KAFKA_TOPIC_SCHD, schdTopic);
        keys.put(Keys.KAFKA_TOPIC_REFERENCE, referenceTopic);
        keys.put(Keys.POLL_INTERVAL, POLL_INTERVAL.toMillis() + "ms");
        keys.put(Keys.JOBS_STANDBY_POLL, "1s");
        keys.put(Keys.HTTP_PORT, "0");
        keys.putAll(extra);
        exchange = MsgExchange.builder().config(keys).build();
        exchange.start();
        await("the runner becomes active", Duration.ofSeconds(30), exchange::isActive);
        http = HttpApi.forExchange(exchange).start();
        return exchange;
    }

    /** The AODB side's own way into {@code CMINMSGS}: committed rows, straight to the server, never proxied. */
    JdbcMailbox aodbSide() {
        return aodbSide;
    }

    /** A direct connection to the mailbox database, as the AODB side holds one (its transactions are the caller's). */
    Connection aodbConnection() throws SQLException {
        return mariadb.connect();
    }

    /** One number from our store, read on a direct connection (never through the proxy). */
    long count(String sql) {
        try (var connection = postgres.dataSource().getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Messages that reached a terminal state. */
    long ended() {
        return count("select count(*) from proc_state where state in ('SUCCEEDED','SKIPPED','DEAD')");
    }

    long watermark() {
        return count("select coalesce(max(w), 0) from inbox_cursor");
    }

    long sentEvents() {
        return count("select count(*) from msg_event where status = 'SENT'");
    }

    /** {@code GET /health/ready}: the HTTP status and the JSON body. */
    Readiness readiness() throws Exception {
        var response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/health/ready"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return new Readiness(response.statusCode(), response.body());
    }

    /** What {@code /health/ready} answered. */
    record Readiness(int status, String body) {
        /** True when the check {@code name} is reported DOWN. */
        boolean down(String name) {
            return Pattern.compile("\"name\":\"" + name + "\",\"status\":\"DOWN\"").matcher(body).find();
        }
    }

    /** Poll {@code condition} every 20 ms until true; fails naming {@code what} after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(20);
        }
    }

    /**
     * How long after {@code since} (a {@link System#nanoTime()}) {@code condition} first held, polled every 20 ms;
     * fails naming {@code what} after {@code timeout}.
     */
    static Duration timeUntil(String what, long since, Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        await(what, timeout, condition);
        return Duration.ofNanos(System.nanoTime() - since);
    }
}
