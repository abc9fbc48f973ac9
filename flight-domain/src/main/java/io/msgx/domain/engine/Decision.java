package io.msgx.domain.engine;

import java.util.List;
import java.util.Objects;

/** What the {@link FlightStateEngine} decided about one message. */
public sealed interface Decision {

    /**
     * What a caller does with each kind of decision, one method per kind (D-149): a new kind adds a method here, and
     * every {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R applied(Applied applied);

        R noChange(NoChange noChange);

        R rejected(Rejected rejected);
    }

    /** The answer of the case for this decision's kind. */
    <R> R match(Cases<R> cases);

    /**
     * The message changed these flights (never empty), sorted by FLID. {@code passedOver} are the parts of a batch
     * ({@code FlightBatch}) that changed nothing, in document order: an operation on a flight the store does not know,
     * a deletion of a flight already gone; empty for any other message.
     */
    record Applied(List<FlightChange> changes, List<PassedOver> passedOver) implements Decision {
        public Applied {
            changes = List.copyOf(changes);
            passedOver = List.copyOf(passedOver);
            if (changes.isEmpty()) {
                throw new IllegalArgumentException("an applied decision changes at least one flight");
            }
        }

        public Applied(List<FlightChange> changes) {
            this(changes, List.of());
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.applied(this);
        }
    }

    /** A part of a batch that changed nothing: the {@code FLID} it names (as sent) and the rule that made it a no-op. */
    record PassedOver(String flid, NoChangeReason reason) {
        public PassedOver {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The message is accepted but changes nothing; the reason says which rule made it a no-op. */
    record NoChange(NoChangeReason reason, String detail) implements Decision {
        public NoChange {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.noChange(this);
        }
    }

    /** A protocol error: nothing is applied, the message ends {@code DEAD(PROTOCOL)} with this reason. */
    record Rejected(String reason) implements Decision {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.rejected(this);
        }
    }

    /** Why an accepted message changed nothing. */
    enum NoChangeReason {
        /** Every flight it names already holds exactly what it carries. */
        UNCHANGED(false),
        /** {@code FDEL} of a flight that is already DELETED: idempotent success. */
        ALREADY_DELETED(false),
        /** {@code FDEL} of a FLID the store has never seen: idempotent success. */
        DELETE_OF_UNKNOWN_FLIGHT(false),
        /** {@code FLOP} for a FLID the store has never seen: nothing to change, no match. */
        OPERATION_ON_UNKNOWN_FLIGHT(true),
        /** {@code FLOP} for a DELETED flight: a deleted flight is not revived by an operation. */
        OPERATION_ON_DELETED_FLIGHT(true);

        private final boolean noMatch;

        NoChangeReason(boolean noMatch) {
            this.noMatch = noMatch;
        }

        /**
         * True when the message found nothing to act on; the pipeline records such a message as
         * {@code SKIPPED} rather than {@code SUCCEEDED}.
         */
        public boolean noMatch() {
            return noMatch;
        }
    }
}
