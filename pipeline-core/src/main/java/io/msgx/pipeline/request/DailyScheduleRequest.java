package io.msgx.pipeline.request;

import io.msgx.domain.flight.OperationDayRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Objects;
import java.util.Optional;

/**
 * Asks the AODB for tomorrow's schedule once a day at a set local time ({@code msgx.requests.daily-schedule-at},
 * e.g. {@code 18:00}; unset = off). Run it often (every minute); it sends at most once per local day. After a
 * restart past the time it asks again, which is harmless: the new request expires the open one.
 */
public final class DailyScheduleRequest {

    private static final Logger log = LoggerFactory.getLogger(DailyScheduleRequest.class);

    private final RequestSender sender;
    private final LocalTime at;
    private final OperationDayRule dayRule;
    private final Clock clock;
    private LocalDate lastAskedOn;

    public DailyScheduleRequest(RequestSender sender, LocalTime at, OperationDayRule dayRule, Clock clock) {
        this.sender = sender;
        this.at = Objects.requireNonNull(at, "at");
        this.dayRule = dayRule;
        this.clock = clock;
    }

    /** The operation day asked for now, or empty when it is not time (or already done today). */
    public synchronized Optional<LocalDate> runOnce() {
        var local = LocalDateTime.ofInstant(clock.instant(), dayRule.airportZone());
        var today = local.toLocalDate();
        if (local.toLocalTime().isBefore(at) || today.equals(lastAskedOn)) {
            return Optional.empty();
        }
        var tomorrow = today.plusDays(1);
        var request = sender.requestSchedule(tomorrow);
        lastAskedOn = today;
        log.info("Daily schedule request for {}: request {} ({})", tomorrow, request.id(), request.status());
        return Optional.of(tomorrow);
    }
}
