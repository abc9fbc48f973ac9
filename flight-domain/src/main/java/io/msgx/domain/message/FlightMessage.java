package io.msgx.domain.message;

/**
 * A decoded inbound message that changes flight state: a schedule package, a dynamic operation, a
 * deletion, or a batch of operations or deletions. The codec produces these; the {@code FlightStateEngine} decides what they do.
 */
public sealed interface FlightMessage permits ScheduleMessage, FlightOperation, FlightDeletion, FlightBatch {

    /**
     * What a caller does with each kind of flight message, one method per kind (D-149): a new kind adds a method here,
     * and every {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R schedule(ScheduleMessage schedule);

        R operation(FlightOperation operation);

        R deletion(FlightDeletion deletion);

        R batch(FlightBatch batch);
    }

    /** The answer of the case for this message's kind. */
    <R> R match(Cases<R> cases);
}
