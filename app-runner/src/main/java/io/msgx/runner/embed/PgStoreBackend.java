package io.msgx.runner.embed;

import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.adapter.pg.PgLeaderLease;
import io.msgx.adapter.pg.PgPipelineStore;
import io.msgx.adapter.pg.PgSchema;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.runner.config.RunnerConfig;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * PostgreSQL, the reference store: the pool's search path is {@code msgx.store.schema}; Flyway migrates it; the lease
 * is a session advisory lock keyed by the schema.
 */
final class PgStoreBackend implements StoreBackend {

    private static final Logger log = LoggerFactory.getLogger(PgStoreBackend.class);

    private final String schema;
    private final ReconnectingPool pool;
    private final PipelineStore store;

    PgStoreBackend(RunnerConfig.Store config, Clock clock) {
        this.schema = config.schema();
        this.pool = ConnectionPools.open("msgx-store", config.url(), config.user(), config.password(),
                config.poolSize(), hikari -> {
                    hikari.addDataSourceProperty("currentSchema", schema);
                    // Plan every statement for its actual values (issue 9): a generic plan, chosen once for all
                    // values, sized a 5,000-key array as 10 keys and a backlog as the few rows of its last ANALYZE,
                    // and once ran a confirmation as 5,000 x 40,000 comparisons (8 s). Planning these short
                    // statements costs far less than one such plan.
                    hikari.addDataSourceProperty("options", "-c plan_cache_mode=force_custom_plan");
                });
        this.store = PgPipelineStore.create(pool, clock);
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
        return PgSchema.migrate(pool, schema);
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
        var lease = new PgLeaderLease(pool, PgLeaderLease.keyOf(schema));
        return LeaderLease.of(lease::tryAcquire, lease::isHeld, lease::close);
    }

    @Override
    public void close() {
        pool.close();
    }
}
