package io.msgx.adapter.oracle;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.StoreContract;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.TreeSet;
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
public final class OracleTestDatabase implements BeforeEachCallback, AfterEachCallback, StoreContract.TestDatabase {

    public static final String URL = env("MSGX_TEST_ORACLE_URL", "");
    public static final String USER = env("MSGX_TEST_ORACLE_USER", "msgx_test");
    public static final String PASSWORD = env("MSGX_TEST_ORACLE_PASSWORD", "");
    static final long LOCK_TIMEOUT_MS = 10_000;

    /** A session time zone that is not the JVM's (nor at the JVM's offset today). */
    public static final ZoneId SESSION_ZONE = sessionZone();

    /** The migrated schema's tables, children before parents, read from the catalog once per JVM ({@link #tables}). */
    private static volatile List<String> tables;

    private static boolean migrated;

    private final boolean realOracle;
    private final boolean migrateFirst;
    private String jdbcUrl;
    private String user;
    private String password;
    private HikariDataSource dataSource;
    private final OracleProbe probe = new OracleProbe(this);
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

    /** Reads and writes this test's schema past the ports. */
    @Override
    public OracleProbe probe() {
        return probe;
    }

    /** Another store of this test's schema, on {@code pool} (a wrapper of {@link #dataSource()}). */
    @Override
    public PipelineStore storeOn(DataSource pool, Clock clock) {
        return OraclePipelineStore.create(pool, clock);
    }

    /** The store of this test's schema, created on first use with {@code clock}. */
    @Override
    public PipelineStore store(Clock clock) {
        if (store == null) {
            store = OraclePipelineStore.create(dataSource, clock);
        }
        return store;
    }

    /** Pooled, auto-commit connections of this test's schema, their session time zone {@link #SESSION_ZONE}. */
    @Override
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

    /**
     * Empty every table of a migrated schema (the catalog's, so a table a new script adds is emptied too) and re-seed
     * the single rows the scripts create ({@code OracleSchemaTest} checks these are all the rows a fresh schema has).
     */
    static void emptyTables(Statement statement) throws SQLException {
        for (var table : tables(statement.getConnection())) {
            statement.executeUpdate("DELETE FROM " + table);
        }
        statement.executeUpdate("INSERT INTO INBOX_CURSOR (ID, W, HOLE_SINCE, SEEDED_AT, UPDATED_AT)"
                + " VALUES (1, 0, NULL, NULL, CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP))");
        statement.executeUpdate("INSERT INTO PIPELINE_LOCK (NAME) VALUES ('PIPELINE')");
        statement.executeUpdate("INSERT INTO FLIGHT_HST_FORGOTTEN (ID, MAX_STATE_VERSION, FORGOTTEN_BEFORE)"
                + " VALUES (1, 0, NULL)");
        statement.executeUpdate("INSERT INTO LEADER_LEASE (NAME, EPOCH) VALUES ('LEADER', 0)");
    }

    /**
     * Every table of the migrated schema of {@code connection} but {@code MSGX_SCHEMA_VERSION}, in an order that
     * deletes the tables referring to another (foreign keys) before it; from the catalog (JDBC metadata: H2's
     * INFORMATION_SCHEMA, Oracle's USER_TABLES and USER_CONSTRAINTS), once per JVM: every schema of a test JVM is
     * migrated by the same scripts.
     */
    static List<String> tables(Connection connection) throws SQLException {
        var known = tables;
        if (known == null) {
            known = deletionOrder(connection);
            tables = known;
        }
        return known;
    }

    private static List<String> deletionOrder(Connection connection) throws SQLException {
        var metadata = connection.getMetaData();
        var schema = connection.getSchema();
        var names = new TreeSet<String>();
        try (var rows = metadata.getTables(null, schema, "%", new String[]{"TABLE"})) {
            while (rows.next()) {
                names.add(rows.getString("TABLE_NAME"));
            }
        }
        names.remove(OracleSchema.VERSION_TABLE);
        // parent -> the tables whose foreign keys refer to it
        var children = new TreeMap<String, Set<String>>();
        for (var table : names) {
            try (var keys = metadata.getImportedKeys(null, schema, table)) {
                while (keys.next()) {
                    var parent = keys.getString("PKTABLE_NAME");
                    if (!parent.equals(table)) {
                        children.computeIfAbsent(parent, p -> new TreeSet<>()).add(table);
                    }
                }
            }
        }
        var order = new ArrayList<String>();
        var left = new TreeSet<>(names);
        while (!left.isEmpty()) {
            var next = left.stream().filter(table -> order.containsAll(children.getOrDefault(table, Set.of())))
                    .toList();
            if (next.isEmpty()) {
                throw new IllegalStateException("the foreign keys among " + left + " form a cycle: empty them by hand");
            }
            order.addAll(next);
            left.removeAll(next);
        }
        if (order.isEmpty()) {
            throw new IllegalStateException("no table in schema " + schema + ": it is not migrated");
        }
        return List.copyOf(order);
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
