package io.msgx.tools.simulator;

import java.util.List;
import java.util.Objects;

/**
 * A simulated day at the airport: every message the AODB side writes into the mailbox, in mailbox order, and
 * what they should come to.
 */
public record AirportDay(SimulationSettings settings, List<SimulatedMessage> messages, DayExpectations expectations) {

    public AirportDay {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(expectations, "expectations");
        messages = List.copyOf(messages);
    }

    /** The messages' XML in mailbox order. */
    public List<String> xml() {
        return messages.stream().map(SimulatedMessage::xml).toList();
    }

    /** The messages of one kind, in mailbox order. */
    public List<SimulatedMessage> messagesOf(SimulatedMessage.Kind kind) {
        return messages.stream().filter(m -> m.kind() == kind).toList();
    }
}
