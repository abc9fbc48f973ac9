package io.msgx.runner.http;

import java.util.Objects;

/**
 * One dependency {@code /health/ready} asks about. A check answers {@link Result.Up} or {@link Result.Down}
 * with a reason that says what is wrong and what to look at. It may also throw or hang: the
 * {@link ReadinessProbe} runs it with a timeout and reports either as DOWN, so a check need not bound itself.
 */
public interface ReadinessCheck {

    /** A short, stable name shown in the readiness answer ({@code store}, {@code mailbox}, ...). */
    String name();

    /** Ask the dependency once. */
    Result check();

    /** The answer of one check. */
    sealed interface Result {

        /** The dependency answered. */
        record Up() implements Result {
        }

        /** The dependency did not answer or answered wrong; {@code reason} says what to look at. */
        record Down(String reason) implements Result {
            public Down {
                Objects.requireNonNull(reason, "reason");
            }
        }

        static Result up() {
            return new Up();
        }

        static Result down(String reason) {
            return new Down(reason);
        }

        default boolean isUp() {
            return this instanceof Up;
        }
    }
}
