package io.msgx.tools.simulator;

import java.time.LocalDate;
import java.util.Objects;

/**
 * What day to simulate and how.
 *
 * @param seed          the only source of variation: the same settings give the same day, byte for byte
 * @param flights       {@code N}, the operated flights of the day (arrivals and departures, including the added
 *                      ones); code-share children come on top
 * @param operationDay  the day every flight's {@code SODT} falls on (06:00–23:30 airport local time)
 * @param mix           the proportions
 * @param packageSize   the most flight records one {@code SCHD DNLD} package carries; a code-share group is never
 *                      split across packages
 * @param firstSequence the {@code SEQN} of the day's first message; the default is derived from the operation day
 *                      so that consecutive days fed into one store do not collide
 * @param homeAirport   the airport the day is simulated at (first or last point of every entire route)
 */
public record SimulationSettings(long seed, int flights, LocalDate operationDay, TrafficMix mix, int packageSize,
                                 long firstSequence, String homeAirport) {

    public SimulationSettings {
        Objects.requireNonNull(operationDay, "operationDay");
        Objects.requireNonNull(mix, "mix");
        Objects.requireNonNull(homeAirport, "homeAirport");
        if (flights < 1 || flights > 20_000) {
            throw new IllegalArgumentException("flights must be between 1 and 20000, got " + flights);
        }
        if (packageSize < 3) {
            throw new IllegalArgumentException("a package must hold at least one code-share group (3 records), got "
                    + packageSize);
        }
        if (firstSequence < 1) {
            throw new IllegalArgumentException("firstSequence must be positive, got " + firstSequence);
        }
    }

    /** A realistic day: {@link TrafficMix#realistic()}, 50 records a package, home airport {@code PVG}. */
    public static SimulationSettings of(long seed, int flights, LocalDate operationDay) {
        return new SimulationSettings(seed, flights, operationDay, TrafficMix.realistic(), 50,
                defaultFirstSequence(operationDay), "PVG");
    }

    public SimulationSettings withMix(TrafficMix newMix) {
        return new SimulationSettings(seed, flights, operationDay, newMix, packageSize, firstSequence, homeAirport);
    }

    public SimulationSettings withPackageSize(int size) {
        return new SimulationSettings(seed, flights, operationDay, mix, size, firstSequence, homeAirport);
    }

    public SimulationSettings withFirstSequence(long sequence) {
        return new SimulationSettings(seed, flights, operationDay, mix, packageSize, sequence, homeAirport);
    }

    /** One million sequence numbers per day, cycling every thousand days. */
    static long defaultFirstSequence(LocalDate day) {
        return Math.floorMod(day.toEpochDay(), 1000L) * 1_000_000L + 1;
    }
}
