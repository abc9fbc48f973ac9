package io.msgx.domain.flight;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The derived code-share list of a master flight (INV-21).
 *
 * <p>A master's {@code MAFL} is every ACTIVE flight whose {@code MAID} names the master, excluding the master
 * itself, as {@code (FLID, FLNO)} pairs sorted by FLID. Arrival order and flight-number changes do not move
 * an entry, so two projections of the same state are equal byte for byte. A flight that is itself a child
 * (non-empty {@code MAID}) publishes no {@code MAFL}; a {@code MAID} that names no existing master simply
 * contributes to no projection and never blocks the child.
 */
public final class MaflProjection {

    private MaflProjection() {
    }

    /**
     * The {@code MAFL} of {@code master} among {@code candidates} (which must include every child of the
     * master; other flights are ignored).
     */
    public static List<MaflEntry> of(FlightId master, Collection<FlightState> candidates) {
        return candidates.stream()
                .filter(FlightState::isActive)
                .filter(f -> f.masterId().filter(master::equals).isPresent())
                .map(f -> new MaflEntry(f.flid(), f.fields().valueOf(FlightField.FLNO)))
                .sorted(Comparator.comparing(MaflEntry::flid))
                .toList();
    }
}
