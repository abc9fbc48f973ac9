package io.msgx.runner.standby;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * One active instance per store: a lease bounded in time, with an epoch (D-108), renewed while {@link #isHeld} is
 * asked, taken over by a standby once it has expired.
 */
public interface LeaderLease extends AutoCloseable {

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
