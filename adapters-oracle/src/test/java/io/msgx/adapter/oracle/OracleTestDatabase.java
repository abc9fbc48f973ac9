package io.msgx.adapter.oracle;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.pipeline.port.PipelineStore;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A fresh, migrated Oracle schema per test. Register it on an instance field with {@code @RegisterExtension}.
 *
 * <p>Where the schema lives, in this order:
 * <ol>
 *   <li>{@code MSGX_TEST_ORACLE_URL} set (with {@code MSGX_TEST_ORACLE_USER}, {@code MSGX_TEST_ORACLE_PASSWORD}): that
 *       real Oracle. The user's schema is migrated once per JVM ({@link OracleSchema#migrate}, a no-op when current),
 *       and <b>every table is emptied before each test</b> (the single rows re-seeded): use a user of its own, never
 *       one holding data you need.</li>
 *   <li>{@code MSGX_TEST_ORACLE=container}: an Oracle XE 11g started by Testcontainers
 *       ({@value OracleXeContainer#IMAGE}) once per JVM, then as a real Oracle; each test is skipped (with that
 *       reason) when no Docker engine answers.</li>
 *   <li>Otherwise (the default build): H2 {@code 2.5} in {@code MODE=Oracle}, a new in-memory database per test,
 *       dropped after it.</li>
 * </ol>
 * Every session's time zone is {@link #SESSION_ZONE}, chosen to differ from the JVM's, so a time that went through
 * the session's zone would show as shifted. The H2 database waits {@value #LOCK_TIMEOUT_MS} ms for a row lock (as
 * Oracle waits for ever, the contracts only need "long enough").
 */
public final class OracleTestDatabase implements BeforeEachCallback, AfterEachCallback {

    public static final String URL = env("MSGX_TEST_ORACLE_URL", "");
    public static final String USER = env("MSGX_TEST_ORACLE_USER", "msgx_test");
    public static final String PASSWORD = env("MSGX_TEST_ORACLE_PASSWORD", "");
    static final long LOCK_TIMEOUT_MS = 10_000;

    /** A session time zone that is not the JVM's (nor at the JVM's offset today). */
    public static final ZoneId SESSION_ZONE = sessionZone();

    /** Tables in an order that deletes children before parents. */
    private static final List<String> TABLES = List.of(
            "FLIGHT_GTDT", "FLIGHT_CKDT", "FLIGHT_CLDT", "FLIGHT_PSDT", "FLIGHT_CHDT", "FLIGHT_DELY", "FLIGHT_ABTM",
            "FLIGHT_CHOT", "FLIGHT_ROUTE_POINT", "FLIGHT_SRVT", "FLIGHT_VIPF", "FLIGHT_PSHT",
            "FLIGHT_TIPT", "FLIGHT_EXTENSIONS", "FLIGHT_SCHD", "FLIGHT_HST", "FLIGHT_HST_FORGOTTEN", "LEADER_LEASE",
            "PROC_STATE", "PROC_STATE_HST", "BACKFILL_RECONCILIATION", "MSG_EVENT", "REQ_TRACK", "REF_MASTER",
            "INBOX_CURSOR", "PIPELINE_LOCK", "SCHD_SNAP_LOG", "RAW_MSG_COPY", "SELF_TEST", "OPERATOR_AUDIT");

    private static boolean migrated;

    private final boolean realOracle;
    private final boolean migrateFirst;
    private String jdbcUrl;
    private String user;
    private String password;
    private HikariDataSource dataSource;
    private OraclePipelineStore store;

    public OracleTestDatabase() {
        this(true);
    }

    private OracleTestDatabase(boolean migrateFirst) {
        this.realOracle = !URL.isBlank() || "container".equalsIgnoreCase(env("MSGX_TEST_ORACLE", ""));
        this.migrateFirst = migrateFirst;
    }

    /**
     * A fresh schema that is <b>not</b> migrated on H2, for tests of migration itself (e.g. the runner's
     * {@code migrate}). A real Oracle's schema is migrated once per JVM whatever this says: check
     * {@link #isRealOracle()} before expecting an empty schema.
     */
    public static OracleTestDatabase unmigrated() {
        return new OracleTestDatabase(false);
    }

    /** True when the tests run against a real Oracle (a URL or a container), false on H2. */
    public boolean isRealOracle() {
        return realOracle;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws SQLException {
        if (!URL.isBlank()) {
            jdbcUrl = URL;
            user = USER;
            password = PASSWORD;
            cleanRealSchema();
        } else if (realOracle) {
            var container = OracleXeContainer.shared();
            jdbcUrl = container.url();
            user = container.user();
            password = container.password();
            cleanRealSchema();
        } else {
            jdbcUrl = "jdbc:h2:mem:msgx_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16)
                    + ";MODE=Oracle;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=" + LOCK_TIMEOUT_MS
                    + ";TIME ZONE=" + SESSION_ZONE.getId();
            user = "sa";
            password = "";
            dataSource = pool();
            if (migrateFirst) {
                OracleSchema.migrate(dataSource);
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        store = null;
        if (dataSource != null) {
            dataSource.close();
            dataSource = null;
        }
        if (!realOracle && jdbcUrl != null) {
            try (var admin = DriverManager.getConnection(jdbcUrl, user, password); var drop = admin.createStatement()) {
                drop.execute("SHUTDOWN");
            }
        }
    }

    /** The store of this test's schema, created on first use with {@code clock}. */
    public PipelineStore store(Clock clock) {
        if (store == null) {
            store = OraclePipelineStore.create(dataSource, clock);
        }
        return store;
    }

    /** Pooled, auto-commit connections of this test's schema, their session time zone {@link #SESSION_ZONE}. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** The JDBC URL of this test's schema, as a runner's {@code msgx.store.url} would name it. */
    public String jdbcUrl() {
        return jdbcUrl;
    }

    /** The user of {@link #jdbcUrl()} ({@code msgx.store.user}). */
    public String user() {
        return user;
    }

    /** The password of {@link #user()} ({@code msgx.store.password}). */
    public String password() {
        return password;
    }

    /** A new small pool on this test's schema (the caller closes it), e.g. for a second store instance. */
    public HikariDataSource pool() {
        var config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(5_000);
        config.setPoolName("msgx-oracle-test");
        if (realOracle) {
            // The session's zone differs from the JVM's; binary sort order for the reference keys.
            config.setConnectionInitSql("ALTER SESSION SET TIME_ZONE = '" + SESSION_ZONE.getId()
                    + "' NLS_SORT = BINARY NLS_COMP = BINARY");
        }
        return new HikariDataSource(config);
    }

    /** Migrate once per JVM, then empty every table and re-seed the single rows V1 creates. */
    private void cleanRealSchema() throws SQLException {
        dataSource = pool();
        synchronized (OracleTestDatabase.class) {
            if (!migrated) {
                OracleSchema.migrate(dataSource);
                migrated = true;
            }
        }
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
            emptyTables(statement);
        }
    }

    /** Empty every table of a migrated schema and re-seed the single rows V1 creates. */
    static void emptyTables(Statement statement) throws SQLException {
        for (var table : TABLES) {
            statement.executeUpdate("DELETE FROM " + table);
        }
        statement.executeUpdate("INSERT INTO INBOX_CURSOR (ID, W, HOLE_SINCE, SEEDED_AT, UPDATED_AT)"
                + " VALUES (1, 0, NULL, NULL, CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP))");
        statement.executeUpdate("INSERT INTO PIPELINE_LOCK (NAME) VALUES ('PIPELINE')");
        statement.executeUpdate("INSERT INTO FLIGHT_HST_FORGOTTEN (ID, MAX_STATE_VERSION, FORGOTTEN_BEFORE)"
                + " VALUES (1, 0, NULL)");
        statement.executeUpdate("INSERT INTO LEADER_LEASE (NAME, EPOCH) VALUES ('LEADER', 0)");
    }

    private static ZoneId sessionZone() {
        var jvm = TimeZone.getDefault().toZoneId();
        var now = Instant.parse("2024-03-11T00:00:00Z");
        for (var candidate : List.of("Asia/Tokyo", "America/St_Johns", "Pacific/Chatham")) {
            var zone = ZoneId.of(candidate);
            if (!zone.getRules().getOffset(now).equals(jvm.getRules().getOffset(now))) {
                return zone;
            }
        }
        throw new IllegalStateException("no session zone differs from the JVM's " + jvm);
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        if (value == null || value.isBlank()) {
            value = System.getProperty(name);
        }
        return value == null || value.isBlank() ? fallback : value;
    }
}
