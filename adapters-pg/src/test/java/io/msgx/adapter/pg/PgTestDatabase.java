package io.msgx.adapter.pg;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.pipeline.store.PipelineStore;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import javax.sql.DataSource;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;

/**
 * A fresh, migrated schema per test in the local PostgreSQL (database {@code test} on 127.0.0.1:5432, user
 * {@code postgres}; override with {@code MSGX_TEST_PG_URL}, {@code MSGX_TEST_PG_USER}, {@code MSGX_TEST_PG_PASSWORD}),
 * dropped after the test. Register it on an instance field with {@code @RegisterExtension}.
 */
public final class PgTestDatabase implements BeforeEachCallback, AfterEachCallback {

    public static final String URL = env("MSGX_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    public static final String USER = env("MSGX_TEST_PG_USER", "postgres");
    public static final String PASSWORD = env("MSGX_TEST_PG_PASSWORD", "");

    private final Map<String, String> connectionProperties;
    private String schema;
    private HikariDataSource dataSource;
    private PgPipelineStore store;

    public PgTestDatabase() {
        this(Map.of());
    }

    /** With extra driver properties on the store's connections (e.g. {@code options=-c lock_timeout=200}). */
    public PgTestDatabase(Map<String, String> connectionProperties) {
        this.connectionProperties = Map.copyOf(connectionProperties);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        schema = "msgx_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        dataSource = pool(schema, connectionProperties);
        PgSchema.migrate(dataSource, schema);
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        store = null;
        if (dataSource != null) {
            dataSource.close();
        }
        if (schema == null) {
            return; // never created: the test stopped before its set-up (an assumption, a failure)
        }
        try (var admin = DriverManager.getConnection(URL, USER, PASSWORD); var drop = admin.createStatement()) {
            drop.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /** The store of this test's schema, created on first use with {@code clock}. */
    public PipelineStore store(Clock clock) {
        if (store == null) {
            store = PgPipelineStore.create(dataSource, clock);
        }
        return store;
    }

    /** Pooled, auto-commit connections whose search path is this test's schema. */
    public DataSource dataSource() {
        return dataSource;
    }

    public String schema() {
        return schema;
    }

    /** A small pool on {@code schema}; the caller closes it. */
    public static HikariDataSource pool(String schema, Map<String, String> properties) {
        var config = new HikariConfig();
        config.setJdbcUrl(URL);
        config.setUsername(USER);
        config.setPassword(PASSWORD);
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(5_000);
        config.setPoolName("msgx-test-" + schema);
        config.addDataSourceProperty("currentSchema", schema);
        properties.forEach(config::addDataSourceProperty);
        return new HikariDataSource(config);
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
