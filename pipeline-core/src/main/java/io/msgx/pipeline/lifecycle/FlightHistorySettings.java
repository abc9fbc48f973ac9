package io.msgx.pipeline.lifecycle;

import java.time.Duration;
import java.util.Objects;

/**
 * When a flight has ended and may leave the current state (seeds §12.5, D1).
 *
 * @param operationDayRetention ({@code msgx.history.operation-day-retention}) days after its operation day a flight
 *                              stays current; an operation day that has passed does not end a flight by itself
 * @param quietPeriod           ({@code msgx.history.quiet-period}) without a deletion, a flight must also have
 *                              had no update for this long — the evidence that nothing more will come
 * @param unplacedRetention     ({@code msgx.history.unplaced-retention}) a flight no schedule ever placed on an
 *                              operation day leaves after this long without an update
 * @param batch                 flights per round
 */
public record FlightHistorySettings(Duration operationDayRetention, Duration quietPeriod, Duration unplacedRetention,
                                    int batch) {

    public FlightHistorySettings {
        Objects.requireNonNull(operationDayRetention, "operationDayRetention");
        Objects.requireNonNull(quietPeriod, "quietPeriod");
        Objects.requireNonNull(unplacedRetention, "unplacedRetention");
        if (batch < 1) {
            throw new IllegalArgumentException("the flight history batch must be at least 1, got " + batch);
        }
    }

    /** 3 days after the operation day, 24 h quiet, 30 days for unplaced flights, 100 a round. */
    public static FlightHistorySettings defaults() {
        return new FlightHistorySettings(Duration.ofDays(3), Duration.ofHours(24), Duration.ofDays(30), 100);
    }
}
