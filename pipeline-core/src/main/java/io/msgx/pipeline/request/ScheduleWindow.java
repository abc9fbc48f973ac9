package io.msgx.pipeline.request;

import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.flight.OperationDayRule;

import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The window a schedule request ({@code RQFD}) covers, in airport local time: {@code STDB} (from) and {@code STDE}
 * (to), both inclusive. Either may be absent (sis-format §10: an {@code RQFD} may carry only {@code STDB} or only
 * {@code STDE}): an open end. At least one is given.
 *
 * @param from the first scheduled time covered ({@code STDB}); null: open at the start
 * @param to   the last scheduled time covered ({@code STDE}); null: open at the end
 */
public record ScheduleWindow(LocalDateTime from, LocalDateTime to) {

    public ScheduleWindow {
        if (from == null && to == null) {
            throw new IllegalArgumentException("a schedule request's window needs a start (STDB), an end (STDE) or both");
        }
        if (from != null && to != null && to.isBefore(from)) {
            throw new IllegalArgumentException("the schedule window ends (" + to + ") before it starts (" + from + ")");
        }
    }

    /** One operation day: from its cut-over to the minute before the next (what the daily request asks for). */
    public static ScheduleWindow ofDay(LocalDate day, OperationDayRule dayRule) {
        var start = day.atTime(dayRule.dayCutover());
        return new ScheduleWindow(start, start.plusDays(1).minusMinutes(1));
    }

    /** From {@code from} on, with no end. */
    public static ScheduleWindow startingAt(LocalDateTime from) {
        return new ScheduleWindow(from, null);
    }

    /** Up to {@code to}, with no start. */
    public static ScheduleWindow endingAt(LocalDateTime to) {
        return new ScheduleWindow(null, to);
    }

    /**
     * The operation day the request is filed under ({@code REQ_TRACK.COVER_DAY}, part of the one-open-request key):
     * the day of its start, or of its end when it has no start.
     */
    public OperationDay coverDay(OperationDayRule dayRule) {
        return dayRule.dayOf(from != null ? from : to);
    }

    /** Whether a flight scheduled at {@code scheduled} (local) lies in the window; an open end bounds nothing. */
    public boolean covers(LocalDateTime scheduled) {
        return (from == null || !scheduled.isBefore(from)) && (to == null || !scheduled.isAfter(to));
    }
}
