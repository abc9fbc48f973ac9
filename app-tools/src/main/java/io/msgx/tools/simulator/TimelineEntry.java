package io.msgx.tools.simulator;

import java.time.LocalDateTime;
import java.util.Comparator;

/** A message due at a moment of the day; {@code order} keeps a flight's own messages in the order it sends them. */
record TimelineEntry(LocalDateTime at, long order, SimulatedMessage.Kind kind, String flid, String description,
                     MessageDraft draft) {

    static final Comparator<TimelineEntry> CHRONOLOGICAL =
            Comparator.comparing(TimelineEntry::at).thenComparingLong(TimelineEntry::order);
}
