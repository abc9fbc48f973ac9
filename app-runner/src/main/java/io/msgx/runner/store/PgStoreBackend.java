package io.msgx.runner.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.adapter.pg.PgPipelineStore;
import io.msgx.adapter.pg.PgSchema;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.standby.EpochLeaderLease;
import io.msgx.runner.standby.LeaderLease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * PostgreSQL, the reference store: the pool's search path is {@code msgx.store.schema}; Flyway migrates it; the lease
 * is a session advisory lock keyed by the schema.
 *
 * <p>Every pooled session is bounded (D-73): {@code statement_timeout} ({@code msgx.store.statement-timeout}) has the
 * server cancel a statement that runs or waits for a lock too long (SQLSTATE 57014, which the adapter reports as the
 * store unavailable: the job retries, OutageLog logs it), and the driver's {@code socketTimeout}
 * ({@code msgx.store.socket-timeout}) drops a connection whose server stopped answering. Migrations run on a pool of
 * their own without either bound: a migration may rewrite a big table, and is run by an operator who watches it.
 */
final class PgStoreBackend implements StoreBackend {

    private static final Logger log = LoggerFactory.getLogger(PgStoreBackend.class);

    private final RunnerConfig.Store config;
    private final RunnerConfig.Lease leaseConfig;
    private final String schema;
    private final ReconnectingPool pool;
    private final PipelineStore store;

    PgStoreBackend(RunnerConfig.Store config, RunnerConfig.Lease lease, Clock clock) {
        this.config = config;
        this.leaseConfig = lease;
        this.schema = config.schema();
        this.pool = ConnectionPools.open("msgx-store", config.url(), config.user(), config.password(),
                config.poolSize(), hikari -> tune(hikari, config.statementTimeout(), config.socketTimeout(),
                        lease.idleTransactionTimeout()));
        this.store = PgPipelineStore.create(pool, clock);
    }

    /** The session settings of every connection; a zero timeout is off. */
    private void tune(com.zaxxer.hikari.HikariConfig hikari, java.time.Duration statementTimeout,
                      java.time.Duration socketTimeout, java.time.Duration idleTransactionTimeout) {
        hikari.addDataSourceProperty("currentSchema", schema);
        // Plan every statement for its actual values (issue 9): a generic plan, chosen once for all
        // values, sized a 5,000-key array as 10 keys and a backlog as the few rows of its last ANALYZE,
        // and once ran a confirmation as 5,000 x 40,000 comparisons (8 s). Planning these short
        // statements costs far less than one such plan.
        // A transaction left idle that long is ended by the server: a frozen instance's locks (the lease row's,
        // PIPELINE_LOCK) hold a take-over back no longer (D-108).
        hikari.addDataSourceProperty("options", "-c plan_cache_mode=force_custom_plan -c statement_timeout="
                + statementTimeout.toMillis() + " -c idle_in_transaction_session_timeout="
                + idleTransactionTimeout.toMillis());
        // pgjdbc counts whole seconds; 0 is off
        hikari.addDataSourceProperty("socketTimeout", Long.toString(ceilSeconds(socketTimeout)));
    }

    static long ceilSeconds(java.time.Duration duration) {
        return (duration.toMillis() + 999) / 1000;
    }

    /** The store's pool (what its sessions are), for the tests of the connection settings (docs/tls.md). */
    javax.sql.DataSource pool() {
        return pool;
    }

    @Override
    public String describe() {
        return "PostgreSQL schema " + schema;
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
        try (var unbounded = ConnectionPools.open("msgx-store-migration", config.url(), config.user(), config.password(),
                2, hikari -> tune(hikari, java.time.Duration.ZERO, java.time.Duration.ZERO,
                        java.time.Duration.ZERO))) {
            return PgSchema.migrate(unbounded, schema);
        }
    }

    @Override
    public void requireCurrent() {
        PgSchema.requireCurrent(pool, schema);
        if (!PgSchema.autovacuumOn(pool)) {
            log.warn("PostgreSQL runs with autovacuum = off: nothing refreshes the statistics the store's look-ups are "
                    + "planned from, nor removes the row versions deliveries leave behind, and they slow down as the "
                    + "tables of schema {} grow. Turn autovacuum on, or have the schema's tables vacuumed and analyzed "
                    + "regularly (vacuumdb --analyze), see docs/operations.md", schema);
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
