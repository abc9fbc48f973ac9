package io.msgx.runner.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.standby.LeaderLease;

import java.time.Clock;
import java.util.Optional;

/**
 * What differs between the store kinds ({@code msgx.store.kind}), and nothing else: which adapter builds the store on
 * the pool, migrates and checks its schema, and holds the single-active-instance lease. {@code MsgExchange} uses only
 * this seam, so every store kind is wired, started, checked and stopped the same way.
 *
 * <p>The readiness probe needs nothing of its own here: it reads {@code INBOX_CURSOR} through the store's port
 * ({@code ReadCheck.store}), the same on every kind.
 */
public interface StoreBackend extends AutoCloseable {

    /** The backend of {@code store.kind()}, its connection pool opened (lazily: nothing connects yet). */
    static StoreBackend open(RunnerConfig.Store store, RunnerConfig.Lease lease, Clock clock) {
        return switch (store.kind()) {
            case PG -> new PgStoreBackend(store, lease, clock);
            case ORACLE -> new OracleStoreBackend(store, lease, clock);
        };
    }

    /** Where the pipeline's tables live, for logs and operators: e.g. {@code PostgreSQL schema msgx}. */
    String describe();

    /** Every store port on this backend's pool. */
    PipelineStore store();

    /** Show the pool's meters ({@code hikaricp.connections.*{pool="msgx-store"}}) in {@code registry}, once. */
    void bindMeters(MeterRegistry registry);

    /** Bring the schema to this build's version; returns how many migrations ran (0 when current). */
    int migrate();

    /**
     * Refuse a schema this build does not know (missing, behind, ahead or altered).
     *
     * @throws IllegalStateException naming the version found, the version expected and what to do
     */
    void requireCurrent();

    /**
     * What start-up should warn about this store for {@code build}, beyond its schema: on Oracle, a store the Oracle
     * self-test has not yet passed against (D-88). Empty when there is nothing to say.
     */
    default Optional<String> caution(BuildInfo build) {
        return Optional.empty();
    }

    /** A new single-active-instance lease on this store (not yet acquired). */
    LeaderLease lease();

    /** Close the pool. */
    @Override
    void close();
}
