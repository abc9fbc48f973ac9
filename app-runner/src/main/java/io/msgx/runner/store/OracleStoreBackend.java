package io.msgx.runner.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.adapter.oracle.OraclePipelineStore;
import io.msgx.adapter.oracle.OracleSchema;
import io.msgx.adapter.oracle.OracleSelfTests;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.standby.EpochLeaderLease;
import io.msgx.runner.standby.LeaderLease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * Oracle 11g (adapters-oracle): plain JDBC, its own versioned DDL scripts recorded in {@code MSGX_SCHEMA_VERSION},
 * and a lease on the {@code PIPELINE_LOCK} row {@code LEADER} held {@code FOR UPDATE NOWAIT} on a dedicated session.
 *
 * <p>The tables live in {@code msgx.store.schema} (by default the store user's own schema). When it differs from the
 * user, every pooled session switches to it ({@code Connection.setSchema}, i.e. {@code ALTER SESSION SET
 * CURRENT_SCHEMA}), so the runner may log in as an application user holding only grants on the owner's tables. On a
 * real Oracle every session also gets {@code NLS_SORT = BINARY NLS_COMP = BINARY}: reference keys are listed in
 * code-point order whatever the client's locale.
 *
 * <p>On a real Oracle every pooled session has a read timeout ({@code oracle.jdbc.ReadTimeout} =
 * {@code msgx.store.socket-timeout}, D-73): a statement blocked by a lock, or a server that stopped answering, ends
 * with the connection instead of freezing the pump, and the adapter reports the store unavailable. Oracle has no
 * session-wide statement timeout ({@code Statement.setQueryTimeout} is per statement, and runs a timer thread per
 * statement in ojdbc), so {@code msgx.store.statement-timeout} applies to PostgreSQL only and the socket timeout is
 * Oracle's bound. Migrations run on a pool of their own without it.
 *
 * <p>A {@code jdbc:h2:} URL (H2 in {@code MODE=Oracle}) is accepted as the stand-in of the tests only; it is never a
 * production store, and start-up says so.
 */
public final class OracleStoreBackend implements StoreBackend {

    private static final Logger log = LoggerFactory.getLogger(OracleStoreBackend.class);

    /** Session settings of every pooled connection on a real Oracle. */
    static final String SESSION_INIT_SQL = "ALTER SESSION SET NLS_SORT = BINARY NLS_COMP = BINARY";

    private final RunnerConfig.Store config;
    /** What ends a frozen holder's transaction on Oracle is the server's (D-108): the idle bound is PostgreSQL's. */
    private final RunnerConfig.Lease leaseConfig;
    private final String schema;
    private final boolean h2;
    private final ReconnectingPool pool;
    private final PipelineStore store;

    public OracleStoreBackend(RunnerConfig.Store config, RunnerConfig.Lease lease, Clock clock) {
        this.config = config;
        this.leaseConfig = lease;
        this.schema = config.schema().toUpperCase(Locale.ROOT);
        this.h2 = config.url().startsWith(RunnerConfig.H2_URL_PREFIX);
        this.pool = ConnectionPools.open("msgx-store", config.url(), config.user(), config.password(),
                config.poolSize(), hikari -> tune(hikari, config.socketTimeout()));
        this.store = OraclePipelineStore.create(pool, clock);
        if (h2) {
            log.warn("msgx.store.url is an H2 database: the Oracle adapter runs on H2's Oracle mode, the stand-in of "
                    + "the tests. It is not a production store; use a jdbc:oracle: URL on site");
        }
    }

    /** The session settings of every connection; a zero read timeout is off. */
    private void tune(com.zaxxer.hikari.HikariConfig hikari, java.time.Duration readTimeout) {
        if (!schema.equalsIgnoreCase(config.user())) {
            hikari.setSchema(schema);
        }
        if (!h2) {
            hikari.setConnectionInitSql(SESSION_INIT_SQL);
            if (!readTimeout.isZero()) {
                hikari.addDataSourceProperty("oracle.jdbc.ReadTimeout", Long.toString(readTimeout.toMillis()));
            }
        }
    }

    @Override
    public String describe() {
        return (h2 ? "H2 (Oracle mode, test stand-in)" : "Oracle") + " schema " + schema;
    }

    @Override
    public PipelineStore store() {
        return store;
    }

    @Override
    public void bindMeters(MeterRegistry registry) {
        pool.bindMeters(registry);
    }

    @Override
    public int migrate() {
        try (var unbounded = ConnectionPools.open("msgx-store-migration", config.url(), config.user(),
                config.password(), 2, hikari -> tune(hikari, java.time.Duration.ZERO))) {
            return OracleSchema.migrate(unbounded);
        }
    }

    @Override
    public void requireCurrent() {
        OracleSchema.requireCurrent(pool);
    }

    /**
     * On a real Oracle: a warning until the Oracle self-test has passed against this store for this build (D-88),
     * read from {@code SELF_TEST}. On H2 nothing: start-up already says it is a stand-in.
     */
    @Override
    public Optional<String> caution(BuildInfo build) {
        return h2 ? Optional.empty() : OracleSelfTests.startupWarning(OracleSelfTests.on(pool).latestPassed(),
                build.version(), build.commit());
    }

    /** True on the tests' stand-in (a {@code jdbc:h2:} URL), false on Oracle. */
    public boolean isStandIn() {
        return h2;
    }

    /** The store's pool, its sessions set as the runner's are. */
    public javax.sql.DataSource dataSource() {
        return pool;
    }

    /** The server as it names itself, e.g. {@code Oracle Database 11g Express Edition Release 11.2.0.2.0 - 64bit}. */
    public String databaseProduct() {
        try (var connection = pool.getConnection()) {
            var metadata = connection.getMetaData();
            var version = metadata.getDatabaseProductVersion().lines().findFirst().orElse("");
            return version.startsWith(metadata.getDatabaseProductName()) ? version
                    : metadata.getDatabaseProductName() + " " + version;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot read the store's database version: " + e.getMessage(), e);
        }
    }

    @Override
    public LeaderLease lease() {
        return new EpochLeaderLease((io.msgx.adapter.jdbc.JdbcPipelineStore<?>) store, leaseConfig);
    }

    @Override
    public void close() {
        pool.close();
    }
}
