package io.msgx.domain.flight;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * How a scheduled time maps to an operation day.
 *
 * <p>{@code SODT} is airport local time. A flight scheduled before the day cut-over time belongs to the
 * previous operation day: with a cut-over of 04:00, a flight at 02:30 on 12 March is part of 11 March's
 * operation. With the default cut-over (midnight) the operation day is simply the calendar date of
 * {@code SODT}. The zone is the airport's; it converts instants (for example a job's "today") to local time.
 */
public record OperationDayRule(ZoneId airportZone, LocalTime dayCutover) {

    public static final ZoneId DEFAULT_ZONE = ZoneId.of("Asia/Shanghai");

    public OperationDayRule {
        Objects.requireNonNull(airportZone, "airportZone");
        Objects.requireNonNull(dayCutover, "dayCutover");
    }

    public static OperationDayRule defaults() {
        return new OperationDayRule(DEFAULT_ZONE, LocalTime.MIDNIGHT);
    }

    /** The operation day of a flight scheduled at this local time. */
    public OperationDay dayOf(LocalDateTime scheduledLocal) {
        var date = scheduledLocal.toLocalDate();
        return OperationDay.of(scheduledLocal.toLocalTime().isBefore(dayCutover) ? date.minusDays(1) : date);
    }

    /** The operation day running at this instant at the airport. */
    public OperationDay dayAt(Instant instant) {
        return dayOf(LocalDateTime.ofInstant(instant, airportZone));
    }

    /** The operation day named by an {@code SODT} text, or empty when the text is not a valid SIS time. */
    public Optional<OperationDay> dayOfSodt(String sodt) {
        return SisTime.parse(sodt).map(this::dayOf);
    }
}
