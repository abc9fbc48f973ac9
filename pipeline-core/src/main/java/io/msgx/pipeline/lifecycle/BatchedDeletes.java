package io.msgx.pipeline.lifecycle;

import java.util.function.IntUnaryOperator;

/**
 * How cleanup jobs delete: a batch at a time, each its own statement, until a batch comes back short — so a
 * long backlog never becomes one huge transaction.
 */
public final class BatchedDeletes {

    private BatchedDeletes() {
    }

    /** Call {@code deleteUpTo(batch)} until it deletes fewer than {@code batch} rows; returns the total. */
    public static int untilDrained(int batch, IntUnaryOperator deleteUpTo) {
        int total = 0;
        int deleted;
        do {
            deleted = deleteUpTo.applyAsInt(batch);
            total += deleted;
        } while (deleted == batch);
        return total;
    }
}
