package io.msgx.pipeline.port;

import io.msgx.pipeline.store.StoreUnavailableException;

/**
 * Our own database (PostgreSQL, or Oracle 11g on site): the transaction port, and the store's ports ({@link StorePorts})
 * whose every call runs as its own auto-committed statement outside any business transaction.
 *
 * <p>Every method either does its work or throws {@link StoreUnavailableException} (connection lost,
 * timeout) or another runtime exception (a defect). A transaction whose work throws is rolled back whole.
 */
public interface PipelineStore extends StorePorts {

    /** Run {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    <T> T inTransaction(TransactionWork<T> work);

    /**
     * As {@link #inTransaction}, holding {@code PIPELINE_LOCK} from the first statement to the commit. Every
     * write to flight state happens inside such a transaction; the lock serialises it with the history
     * cleanup, the only other writer of flight tables (INV-18).
     */
    <T> T inLockedTransaction(TransactionWork<T> work);

    /** Retention of history and trail tables, each call its own statement. */
    Housekeeping housekeeping();

    /** The replay channel's raw copies, each call its own statement. */
    RawMessageCopies rawCopies();

    /** The schedule trail, appended after the business commit. */
    ScheduleLog scheduleLog();

    /**
     * Run {@code work} while no other process that shares this store runs lifecycle work (seeds §9.1: a replay moving
     * rows back to {@code PENDING} never overlaps a backfill round marking them in the mailbox). The database stores
     * hold a lock of the store for the length of {@code work}: PostgreSQL a session advisory lock, Oracle a row of
     * {@code PIPELINE_LOCK}; it goes with the session if the process dies. {@code work} runs outside any transaction
     * and may take its own. The default runs {@code work} as it is: a store no other process shares (the in-memory
     * one) has nobody to exclude, and within one process {@code MessageLifecycleGate} does.
     */
    default <T> T exclusiveLifecycle(java.util.function.Supplier<T> work) {
        return work.get();
    }

    /** The work of one transaction. */
    @FunctionalInterface
    interface TransactionWork<T> {
        T run(PipelineTransaction tx);
    }
}
