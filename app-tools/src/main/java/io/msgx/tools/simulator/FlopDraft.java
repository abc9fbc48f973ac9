package io.msgx.tools.simulator;

import io.msgx.domain.message.FlightOperation;

import java.time.LocalDateTime;

/** A dynamic operation a flight's script sends at a moment of the day (before it has a {@code SEQN}). */
record FlopDraft(LocalDateTime at, FlightOperation operation, String description) {
}
