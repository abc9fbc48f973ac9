package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.ScheduleMessage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code SCHD ADFT}: a flight added after the daily plan.
 *
 * <p>Rule (set-only, until the AODB side confirms what an absent ADFT field means). Every record needs a
 * {@code FLID}; when {@code RECS} is present it must equal the record count. A carried value sets; an empty
 * element, an empty list and an absent field change nothing. The operation day comes from {@code SODT} when
 * it parses and the flight has none yet; an unparsable {@code SODT} leaves the operation day as it is (null
 * for a new flight). A parsable {@code SODT} naming another day than the flight already holds is a protocol
 * error (INV-12). A DELETED flight an ADFT names is ACTIVE again.
 */
final class AdftHandler implements MessageHandler<ScheduleMessage> {

    private final OperationDayRule dayRule;

    AdftHandler(OperationDayRule dayRule) {
        this.dayRule = dayRule;
    }

    @Override
    public HandlerResult handle(ScheduleMessage message, FlightSnapshot current, long msgId) {
        var records = message.records();
        if (message.declaredCount() != null && message.declaredCount() != records.size()) {
            return HandlerResult.rejected("SCHD ADFT declares RECS=" + message.declaredCount() + " but carries "
                    + records.size() + " FLTR");
        }
        Map<FlightId, FlightState> next = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            var record = records.get(i);
            if (!FlightId.isValid(record.flid())) {
                return HandlerResult.rejected("ADFT FLTR #" + (i + 1) + " has no usable FLID");
            }
            var flid = FlightId.of(record.flid());
            var base = next.containsKey(flid)
                    ? next.get(flid)
                    : current.find(flid).orElseGet(() -> FlightStates.newFlight(flid, msgId));
            var state = PatchMerge.SET_ONLY.apply(base, record.patch()).withStatus(FlightStatus.ACTIVE);
            if (record.patch().fields().get(FlightField.SODT) instanceof FieldChange.SetTo sodt) {
                var day = dayRule.dayOfSodt(sodt.value());
                if (day.isPresent()) {
                    if (base.operationDay() != null && !base.operationDay().equals(day.get())) {
                        return HandlerResult.rejected("ADFT for FLID " + flid + " places it on operation day "
                                + day.get() + " but it belongs to " + base.operationDay()
                                + ". An operation day never changes (INV-12)");
                    }
                    state = state.withOperationDay(day.get());
                }
            }
            next.put(flid, state);
        }
        return new HandlerResult.Proposed(next);
    }
}
