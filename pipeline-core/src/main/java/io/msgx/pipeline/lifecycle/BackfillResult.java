package io.msgx.pipeline.lifecycle;

/** The four outcomes of writing one processing mark (seeds §6.2). */
public sealed interface BackfillResult {

    long msgId();

    /** The mark was empty and is now written; confirmed. */
    record Written(long msgId) implements BackfillResult {
    }

    /** The row was already marked; the old value kept, confirmed as a success. */
    record AlreadyMarked(long msgId) implements BackfillResult {
    }

    /** The mailbox row is gone: abandoned at once ({@code MISSING_ROW}), an alert. Not marked. */
    record RowMissing(long msgId) implements BackfillResult {
    }

    /**
     * The mailbox could not be written: retried after a backoff, or — once {@code R} has passed since enqueue —
     * abandoned ({@code TRANSIENT_DEADLINE}), an alert. Not marked.
     */
    record TransientFailure(long msgId, String reason, boolean abandoned) implements BackfillResult {
    }
}
