package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.ScheduleMessage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code SCHD DNLD} and {@code SCHD RESP}: the daily schedule package and the answer to our schedule request.
 *
 * <p>Rule. The package is validated whole before anything is applied: {@code RECS} must be present and equal
 * the number of {@code FLTR}; every record needs a {@code FLID} and a parsable {@code SODT}; a FLID may repeat
 * only with the same operation day; and no record may move a flight off the operation day it already has
 * (INV-12). Any failure rejects the whole package (a protocol error, nothing written). Then each record, in
 * order, creates or updates its flight: carried fields set, explicit empties clear, absent fields are kept
 * (or cleared under {@link AbsentFieldPolicy#CLEAR}); a DELETED flight the schedule carries is ACTIVE again.
 * A flight absent from the package is never touched (INV-15).
 */
final class ScheduleHandler implements MessageHandler<ScheduleMessage> {

    private final OperationDayRule dayRule;
    private final PatchMerge merge;

    ScheduleHandler(OperationDayRule dayRule, AbsentFieldPolicy absentFieldPolicy) {
        this.dayRule = dayRule;
        this.merge = absentFieldPolicy == AbsentFieldPolicy.CLEAR ? PatchMerge.MERGE_CLEARING_ABSENT : PatchMerge.MERGE;
    }

    @Override
    public HandlerResult handle(ScheduleMessage message, FlightSnapshot current, long msgId) {
        var records = message.records();
        if (message.declaredCount() == null) {
            return HandlerResult.rejected("SCHD " + message.kind() + " has no RECS: the record count must be declared");
        }
        if (message.declaredCount() != records.size()) {
            return HandlerResult.rejected("SCHD " + message.kind() + " declares RECS=" + message.declaredCount()
                    + " but carries " + records.size() + " FLTR");
        }
        var days = new LinkedHashMap<FlightId, OperationDay>();
        for (int i = 0; i < records.size(); i++) {
            var record = records.get(i);
            var where = "FLTR #" + (i + 1);
            if (!FlightId.isValid(record.flid())) {
                return HandlerResult.rejected(where + " has no usable FLID (missing, blank or longer than "
                        + FlightId.MAX_LENGTH + " characters)");
            }
            var flid = FlightId.of(record.flid());
            where += " (FLID " + flid + ")";
            var sodt = record.patch().fields().get(FlightField.SODT);
            if (!(sodt instanceof FieldChange.SetTo set)) {
                return HandlerResult.rejected(where + " has no SODT: the operation day cannot be derived");
            }
            var day = dayRule.dayOfSodt(set.value());
            if (day.isEmpty()) {
                return HandlerResult.rejected(where + " has SODT '" + set.value() + "', not a ddMMMyyHHmm time");
            }
            var earlier = days.putIfAbsent(flid, day.get());
            if (earlier != null && !earlier.equals(day.get())) {
                return HandlerResult.rejected("FLID " + flid + " appears twice in the package with operation days "
                        + earlier + " and " + day.get());
            }
        }
        for (var entry : days.entrySet()) {
            var held = current.find(entry.getKey()).map(FlightState::operationDay).orElse(null);
            if (held != null && !held.equals(entry.getValue())) {
                return HandlerResult.rejected("FLID " + entry.getKey() + " belongs to operation day " + held
                        + "; the package places it on " + entry.getValue()
                        + ". An operation day never changes (INV-12): whole package rejected");
            }
        }

        Map<FlightId, FlightState> next = new LinkedHashMap<>();
        for (var record : records) {
            var flid = FlightId.of(record.flid());
            var base = next.containsKey(flid)
                    ? next.get(flid)
                    : current.find(flid).orElseGet(() -> FlightStates.newFlight(flid, msgId));
            var merged = merge.apply(base, record.patch())
                    .withStatus(FlightStatus.ACTIVE)
                    .withOperationDay(days.get(flid));
            next.put(flid, merged);
        }
        return new HandlerResult.Proposed(next);
    }
}
