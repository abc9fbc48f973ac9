package io.msgx.tools.simulator;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The day's messages as they become due, before they are put in mailbox order. */
final class Timeline {

    private final List<TimelineEntry> entries = new ArrayList<>();
    private final Map<String, LocalDateTime> lastByFlight = new LinkedHashMap<>();
    private long order;

    void add(LocalDateTime at, SimulatedMessage.Kind kind, String flid, String description, MessageDraft draft) {
        entries.add(new TimelineEntry(at, order++, kind, flid, description, draft));
        if (flid != null) {
            lastByFlight.merge(flid, at, (a, b) -> a.isAfter(b) ? a : b);
        }
    }

    /** When the last message about a flight is due; null when none is. */
    LocalDateTime lastAbout(String flid) {
        return lastByFlight.get(flid);
    }

    /** How many messages of these kinds are due. */
    int count(SimulatedMessage.Kind... kinds) {
        var wanted = List.of(kinds);
        return (int) entries.stream().filter(e -> wanted.contains(e.kind())).count();
    }

    List<TimelineEntry> entries() {
        return List.copyOf(entries);
    }

    /** Every entry in the order the AODB sends them. */
    List<TimelineEntry> chronological() {
        var sorted = new ArrayList<>(entries);
        sorted.sort(TimelineEntry.CHRONOLOGICAL);
        return sorted;
    }
}
