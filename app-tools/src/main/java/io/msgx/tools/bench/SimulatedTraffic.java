package io.msgx.tools.bench;

import io.msgx.tools.simulator.AirportDaySimulator;
import io.msgx.tools.simulator.SimulatedMessage;
import io.msgx.tools.simulator.SimulationSettings;

import java.time.LocalDate;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An endless stream of simulated AODB messages, one airport day after another, generated lazily: only the day being
 * read is in memory (a few thousand messages), never the whole run. Day {@code i} is operation day
 * {@code firstDay + i} with seed {@code seed + i}; the simulator derives FLIDs and {@code SEQN}s from the operation
 * day, so consecutive days never share a FLID nor a business identity (up to 1,000 days, far beyond 1M messages).
 */
final class SimulatedTraffic implements Iterator<SimulatedMessage> {

    /** Operated flights per simulated day: a busy hub, about 15 messages a flight. */
    static final int FLIGHTS_PER_DAY = 1_000;
    private static final int MAX_DAYS = 1_000;

    private final AirportDaySimulator simulator = new AirportDaySimulator();
    private final long seed;
    private final LocalDate firstDay;
    private final int flightsPerDay;
    private int day = -1;
    private List<SimulatedMessage> current = List.of();
    private int position;

    SimulatedTraffic(long seed, LocalDate firstDay, int flightsPerDay) {
        this.seed = seed;
        this.firstDay = firstDay;
        this.flightsPerDay = flightsPerDay;
    }

    /** Days generated so far (the one being read included). */
    int days() {
        return day + 1;
    }

    @Override
    public boolean hasNext() {
        return true;
    }

    @Override
    public SimulatedMessage next() {
        while (position >= current.size()) {
            day++;
            if (day >= MAX_DAYS) {
                throw new NoSuchElementException("more than " + MAX_DAYS + " simulated days: SEQNs would repeat");
            }
            current = simulator.generate(SimulationSettings.of(seed + day, flightsPerDay, firstDay.plusDays(day)))
                    .messages();
            position = 0;
        }
        return current.get(position++);
    }
}
