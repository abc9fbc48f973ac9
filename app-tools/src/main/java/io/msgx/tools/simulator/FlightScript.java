package io.msgx.tools.simulator;

import io.msgx.domain.message.FlopSubtype;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The operations one flight's day sends, in the order they are sent. Each is sent some seconds into the minute
 * it is due; the times only go forward.
 */
final class FlightScript {

    private final PlannedFlight flight;
    private final SplittableRandom random;
    private final List<FlopDraft> drafts = new ArrayList<>();

    FlightScript(PlannedFlight flight, SplittableRandom random) {
        this.flight = flight;
        this.random = random;
    }

    PlannedFlight flight() {
        return flight;
    }

    FlopComposer flop(FlopSubtype subtype) {
        return new FlopComposer(flight, subtype);
    }

    /** Send {@code flop} at {@code minute} (plus a few seconds); never before the previous one. */
    void send(LocalDateTime minute, FlopComposer flop, String what) {
        var at = minute.withSecond(0).withNano(0).plusSeconds(random.nextInt(60));
        if (!drafts.isEmpty() && at.isBefore(drafts.get(drafts.size() - 1).at())) {
            at = drafts.get(drafts.size() - 1).at();
        }
        drafts.add(new FlopDraft(at, flop.operation(), flight.flightNumber() + " " + flop.subtype() + ": " + what));
    }

    List<FlopDraft> drafts() {
        return List.copyOf(drafts);
    }
}
