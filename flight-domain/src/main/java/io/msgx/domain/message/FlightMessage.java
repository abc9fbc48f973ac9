package io.msgx.domain.message;

/**
 * A decoded inbound message that changes flight state: a schedule package, a dynamic operation, a
 * deletion, or a batch of operations or deletions. The codec produces these; the {@code FlightStateEngine} decides what they do.
 */
public sealed interface FlightMessage permits ScheduleMessage, FlightOperation, FlightDeletion, FlightBatch {
}
