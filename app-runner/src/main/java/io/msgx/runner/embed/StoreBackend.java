package io.msgx.runner.embed;

import io.micrometer.core.instrument.MeterRegistry;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.runner.config.RunnerConfig;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What differs between the store kinds ({@code msgx.store.kind}), and nothing else: which adapter builds the store on
 * the pool, migrates and checks its schema, and holds the single-active-instance lease. {@link MsgExchange} uses only
 * this seam, so every store kind is wired, started, checked and stopped the same way.
 *
 * <p>The readiness probe needs nothing of its own here: it reads {@code INBOX_CURSOR} through the store's port
 * ({@code ReadCheck.store}), the same on every kind.
 */
interface StoreBackend extends AutoCloseable {

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

    /**
     * One active instance per store: a lease bounded in time, with an epoch (D-108), renewed while {@link #isHeld} is
     * asked, taken over by a standby once it has expired.
     */
    interface LeaderLease extends AutoCloseable {

        /** True when this instance holds the lease now (acquired now or held already). */
        boolean tryAcquire();

        /** True while this instance holds the lease; renews it when a renewal is due. */
        boolean isHeld();

        /**
         * True while this instance holds the lease by its own clock, asking nothing of the store (no renewal): what
         * the dispatcher asks before it hands a round to the broker ({@link LeaseGuardedSink}).
         */
        default boolean isHeldByOwnClock() {
            return isHeld();
        }

        /** Release the lease, so that a standby takes over at its next look. */
        @Override
        void close();

        /**
         * From now on every transaction of the store proves this lease first, and a write of an instance that lost
         * it commits nothing (D-108). Called when the instance becomes active; a lease that fences nothing does
         * nothing.
         */
        default void fenceStore() {
        }

        /** The lease an adapter's lease class implements with these three methods (the adapters know no runner). */
        static LeaderLease of(BooleanSupplier tryAcquire, BooleanSupplier isHeld, Runnable close) {
            Objects.requireNonNull(tryAcquire, "tryAcquire");
            Objects.requireNonNull(isHeld, "isHeld");
            Objects.requireNonNull(close, "close");
            return new LeaderLease() {
                @Override
                public boolean tryAcquire() {
                    return tryAcquire.getAsBoolean();
                }

                @Override
                public boolean isHeld() {
                    return isHeld.getAsBoolean();
                }

                @Override
                public void close() {
                    close.run();
                }
            };
        }
    }
}
