package io.msgx.adapter.pg;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.StoreContract;
import io.msgx.testing.jdbc.TestServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A fresh, migrated schema per test in the test PostgreSQL, dropped after the test. Register it on an instance field
 * with {@code @RegisterExtension}. The server ({@link TestServer#choose}, once per JVM): the one
 * {@code MSGX_TEST_PG_URL} names (as {@code MSGX_TEST_PG_USER} / {@code _PASSWORD}); else the local one (database
 * {@code test} on 127.0.0.1:5432, user {@code postgres}) when it answers; else an embedded PostgreSQL (zonky's
 * packaged binaries, as the demo uses) with a database {@code test} and the superuser {@code postgres}.
 */
public final class PgTestDatabase implements BeforeEachCallback, AfterEachCallback, StoreContract.TestDatabase {

    /** The server of this JVM's tests, and where it came from. */
    public static final TestServer SERVER = TestServer.choose("PostgreSQL", "MSGX_TEST_PG",
            "jdbc:postgresql://127.0.0.1:5432/test", 5432, "postgres", PgTestDatabase::startEmbedded);
    public static final String URL = SERVER.url();
    public static final String USER = SERVER.user();
    public static final String PASSWORD = SERVER.password();

    private final Map<String, String> connectionProperties;
    private String schema;
    private HikariDataSource dataSource;
    private PgPipelineStore store;
    private final PgProbe probe = new PgProbe(this);

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

    /** Reads and writes this test's schema past the ports. */
    @Override
    public PgProbe probe() {
        return probe;
    }

    /** Another store of this test's schema, on {@code pool} (a wrapper of {@link #dataSource()}). */
    @Override
    public PipelineStore storeOn(DataSource pool, Clock clock) {
        return PgPipelineStore.create(pool, clock);
    }

    /** The store of this test's schema, created on first use with {@code clock}. */
    @Override
    public PipelineStore store(Clock clock) {
        if (store == null) {
            store = PgPipelineStore.create(dataSource, clock);
        }
        return store;
    }

    /** Pooled, auto-commit connections whose search path is this test's schema. */
    @Override
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

    /**
     * An embedded PostgreSQL on a free loopback port, with a database {@code test} as on the local server. Its
     * binaries are unpacked once per machine (zonky's cache under the temporary folder); its data lives in a folder
     * of this JVM, deleted at exit. Authentication is {@code trust}, as on the local server.
     */
    private static TestServer startEmbedded() {
        var workDir = TestServer.workDir("msgx-test-pg-");
        try {
            var postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(workDir.resolve("data"))
                    .setCleanDataDirectory(true)
                    .setRegisterShutdownHook(false)
                    .setPGStartupWait(Duration.ofMinutes(2)) // not zonky's 10 s: the build's machines are busy
                    .start();
            TestServer.stopAtExit("PostgreSQL", postgres::close, workDir);
            var url = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/";
            try (var admin = DriverManager.getConnection(url + "postgres", "postgres", "");
                 var create = admin.createStatement()) {
                create.execute("CREATE DATABASE test");
            }
            return new TestServer(url + "test", "postgres", "", TestServer.Origin.EMBEDDED);
        } catch (IOException e) {
            TestServer.deleteQuietly(workDir);
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + workDir, e);
        } catch (SQLException e) {
            throw new IllegalStateException("the embedded PostgreSQL did not take its test database: " + e, e);
        }
    }
}
