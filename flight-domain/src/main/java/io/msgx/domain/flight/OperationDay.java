package io.msgx.domain.flight;

import java.time.LocalDate;
import java.util.Objects;

/**
 * The operation day a flight belongs to: derived from its scheduled time ({@code SODT}) by the
 * {@link OperationDayRule}, never from when a message was received. Once set on a flight it never changes.
 */
public record OperationDay(LocalDate date) implements Comparable<OperationDay> {

    public OperationDay {
        Objects.requireNonNull(date, "date");
    }

    public static OperationDay of(LocalDate date) {
        return new OperationDay(date);
    }

    /** ISO form {@code yyyy-MM-dd}, as published on Kafka. */
    @Override
    public String toString() {
        return date.toString();
    }

    @Override
    public int compareTo(OperationDay other) {
        return date.compareTo(other.date);
    }
}
