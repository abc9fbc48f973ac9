package io.msgx.pipeline.record;

import java.util.Objects;

/**
 * How a message ends: {@code SUCCEEDED}, {@code SKIPPED} or {@code DEAD}, with an error class (dead only) and a
 * reason an operator can read ({@code duplicate-of:17}, {@code ignored:LDM-*}, {@code no-match:unknown-flight},
 * the codec's or the engine's rejection text).
 */
public record MessageEnd(ProcStatus status, ErrorClass errorClass, String reason) {

    public MessageEnd {
        Objects.requireNonNull(status, "status");
        if (!status.isTerminal()) {
            throw new IllegalArgumentException(status + " is not a terminal state");
        }
        if ((status == ProcStatus.DEAD) != (errorClass != null)) {
            throw new IllegalArgumentException("an error class goes with DEAD and only with DEAD");
        }
    }

    public static MessageEnd succeeded(String reason) {
        return new MessageEnd(ProcStatus.SUCCEEDED, null, reason);
    }

    public static MessageEnd skipped(String reason) {
        return new MessageEnd(ProcStatus.SKIPPED, null, Objects.requireNonNull(reason, "reason"));
    }

    public static MessageEnd dead(ErrorClass errorClass, String reason) {
        return new MessageEnd(ProcStatus.DEAD, errorClass, Objects.requireNonNull(reason, "reason"));
    }
}
