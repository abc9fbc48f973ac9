package io.msgx.runner.embed;

import com.zaxxer.hikari.HikariDataSource;
import io.msgx.adapter.pg.PgLeaderLease;
import io.msgx.adapter.pg.PgPipelineStore;
import io.msgx.adapter.pg.PgSchema;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.runner.config.RunnerConfig;

import java.time.Clock;

/**
 * PostgreSQL, the reference store: the pool's search path is {@code msgx.store.schema}; Flyway migrates it; the lease
 * is a session advisory lock keyed by the schema.
 */
final class PgStoreBackend implements StoreBackend {

    private final String schema;
    private final HikariDataSource pool;
    private final PipelineStore store;

    PgStoreBackend(RunnerConfig.Store config, Clock clock) {
        this.schema = config.schema();
        this.pool = ConnectionPools.open("msgx-store", config.url(), config.user(), config.password(),
                config.poolSize(), hikari -> hikari.addDataSourceProperty("currentSchema", schema));
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
    public int migrate() {
        return PgSchema.migrate(pool, schema);
    }

    @Override
    public void requireCurrent() {
        PgSchema.requireCurrent(pool, schema);
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
