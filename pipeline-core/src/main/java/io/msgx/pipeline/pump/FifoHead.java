package io.msgx.pipeline.pump;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.InboxCursor;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The head of the FIFO queue as an operator needs it at 3 a.m.: which message holds everything behind it, what it
 * is, how long it has waited, and why it does not move. What {@code status}, {@code /health/ready} and the console
 * show; the pump decides with the same {@link HeadBlock#of}.
 *
 * @param msgId         the mailbox ID of the smallest open message
 * @param kind          {@code TYPE-STYP}, or null when neither its identity nor its text tells (not read yet, or the
 *                      mailbox cannot be read)
 * @param status        {@code PENDING} or {@code FAILED}
 * @param errorClass    the class of its last failure; null before any
 * @param attempts      failed attempts so far
 * @param nextAttemptAt when a {@code FAILED} head is tried again; null for a {@code PENDING} one
 * @param enqueuedAt    when intake enqueued it
 * @param age           how long it has been open ({@code now - enqueuedAt}), never negative
 * @param blockedBy     what holds it; {@link HeadBlock#NOT_BLOCKED} when the pump takes it at its next tick
 * @param lastError     the text of its last failure; null before any
 */
public record FifoHead(long msgId, String kind, ProcStatus status, ErrorClass errorClass, int attempts,
                       Instant nextAttemptAt, Instant enqueuedAt, Duration age, HeadBlock blockedBy,
                       String lastError) {

    public FifoHead {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        Objects.requireNonNull(age, "age");
        Objects.requireNonNull(blockedBy, "blockedBy");
    }

    /** The head {@code head} at {@code now}, with the inbox {@code cursor} and its {@code kind} (null when unknown). */
    public static FifoHead of(ProcRecord head, InboxCursor cursor, String kind, Instant now) {
        var age = Duration.between(head.enqueuedAt(), now);
        return new FifoHead(head.msgId(), kind, head.status(), head.errorClass(), head.attempts(),
                head.nextAttemptAt(), head.enqueuedAt(), age.isNegative() ? Duration.ZERO : age,
                HeadBlock.of(head, cursor, now), head.lastError());
    }

    /** Whether something holds the head (it waits for a retry, for intake, or for a hole). */
    public boolean blocked() {
        return blockedBy != HeadBlock.NOT_BLOCKED;
    }

    /** One line: {@code 4711 FLOP-GTDT FAILED(UNSUPPORTED) attempt 3, blocked by unsupported, open 12 min}. */
    public String summary() {
        var line = new StringBuilder().append(msgId).append(' ').append(kind == null ? "?" : kind).append(' ')
                .append(status);
        if (errorClass != null) {
            line.append('(').append(errorClass).append(')');
        }
        if (attempts > 0) {
            line.append(", ").append(attempts).append(attempts == 1 ? " attempt" : " attempts");
        }
        if (nextAttemptAt != null && blocked()) {
            line.append(", next at ").append(nextAttemptAt);
        }
        line.append(", ").append(blocked() ? "blocked by " + blockedBy.label() : "due").append(", open ")
                .append(age.toSeconds()).append(" s");
        return line.toString();
    }
}
