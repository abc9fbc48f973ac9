package io.msgx.pipeline.lifecycle;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Keeps replay and backfill apart within one instance (seeds §9.1): a backfill round never runs while an
 * operator's replay moves rows back to {@code PENDING}, and the other way round. Both are short; the gate is
 * fair so neither starves.
 */
public final class MessageLifecycleGate {

    private final ReentrantLock lock = new ReentrantLock(true);

    public <T> T exclusively(Supplier<T> work) {
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }
}
