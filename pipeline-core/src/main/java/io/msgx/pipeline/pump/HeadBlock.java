package io.msgx.pipeline.pump;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.InboxCursor;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;

import java.time.Instant;
import java.util.Locale;

/**
 * Why the head of the FIFO queue does not move, as the {@code blocked} gauge, {@code status}, {@code /health/ready}
 * and the console tell it. {@link #of} is the one classification all of them use, the pump included.
 */
public enum HeadBlock {
    /** There is no head, or it is due: the pump takes it at its next tick. */
    NOT_BLOCKED,
    /** The head is a kind no processor handles, waiting for its next attempt ({@code FAILED(UNSUPPORTED)}). */
    UNSUPPORTED,
    /** The head failed for another reason and waits for its next attempt. */
    BACKOFF,
    /**
     * The head is above the watermark and intake has not found a gap: it has not confirmed yet that no smaller ID
     * can still appear (it enqueued the head ahead of the poller, or has not read that far).
     */
    BEYOND_WATERMARK,
    /**
     * The head is above the watermark and the mailbox ID just after the watermark is missing: intake waits for that
     * ID to commit, or gives it up as a permanent hole after {@code msgx.pipeline.max-commit-delay}.
     */
    HOLE;

    /** The wire form of a gauge tag or a JSON value: {@code beyond_watermark}, {@code hole}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * What holds {@code head} at {@code now}, given the inbox {@code cursor}: above the watermark it is the hole or the
     * watermark; a {@code FAILED} head whose next attempt is still ahead waits for its backoff; anything else is due.
     */
    public static HeadBlock of(ProcRecord head, InboxCursor cursor, Instant now) {
        if (head == null) {
            return NOT_BLOCKED;
        }
        if (head.msgId() > cursor.watermark()) {
            return cursor.holeSince() == null ? BEYOND_WATERMARK : HOLE;
        }
        if (head.status() == ProcStatus.FAILED && head.nextAttemptAt() != null && now.isBefore(head.nextAttemptAt())) {
            return waitingAfter(head.errorClass());
        }
        return NOT_BLOCKED;
    }

    /** What holds a head that failed with {@code errorClass} and waits for its next attempt. */
    public static HeadBlock waitingAfter(ErrorClass errorClass) {
        return errorClass == ErrorClass.UNSUPPORTED ? UNSUPPORTED : BACKOFF;
    }
}
