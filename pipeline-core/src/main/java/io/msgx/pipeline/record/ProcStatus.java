package io.msgx.pipeline.record;

/**
 * Where an inbound message stands ({@code PROC_STATE.STATE}).
 *
 * <p>{@code PENDING} and {@code FAILED} are open: the smallest open message is the head of the FIFO queue
 * and nothing after it is processed until it ends. {@code SUCCEEDED}, {@code SKIPPED} and {@code DEAD} are
 * terminal. {@code ARCHIVED} is not a processing state: it is the identity shadow an archived row leaves
 * behind, never a head, never backfilled, never counted in the backlog.
 */
public enum ProcStatus {
    PENDING,
    FAILED,
    SUCCEEDED,
    SKIPPED,
    DEAD,
    ARCHIVED;

    public boolean isOpen() {
        return this == PENDING || this == FAILED;
    }

    public boolean isTerminal() {
        return this == SUCCEEDED || this == SKIPPED || this == DEAD;
    }
}
