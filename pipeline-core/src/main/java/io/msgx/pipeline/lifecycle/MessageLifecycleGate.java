package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.port.PipelineStore;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Keeps replay and backfill apart (seeds §9.1): a backfill round never runs while an operator's replay moves rows
 * back to {@code PENDING}, and the other way round — within one instance by a fair lock (neither starves), and
 * between processes (the CLI's {@code replay} beside the active instance's backfill job) by the store's own lock
 * ({@link PipelineStore#exclusiveLifecycle}). Both pieces of work are short.
 */
public final class MessageLifecycleGate {

    private final ReentrantLock lock = new ReentrantLock(true);
    private final PipelineStore store;

    /** A gate within this process only: for a store no other process shares. */
    public MessageLifecycleGate() {
        this(null);
    }

    /** A gate within this process and, through {@code store}'s lock, between every process that shares it. */
    public MessageLifecycleGate(PipelineStore store) {
        this.store = store;
    }

    public <T> T exclusively(Supplier<T> work) {
        lock.lock();
        try {
            return store == null ? work.get() : store.exclusiveLifecycle(work);
        } finally {
            lock.unlock();
        }
    }
}
