package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.OperationDayRule;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The engine's policy knobs: the operation-day rule, what a full schedule means by an absent field, and how each list
 * {@code FLOP} lands on its list ({@code listModes}: a list not named is {@link ListMode#REPLACE}d).
 */
public record EngineSettings(OperationDayRule operationDayRule, AbsentFieldPolicy scheduleAbsentFields,
                             Map<FlightList, ListMode> listModes) {

    public EngineSettings {
        Objects.requireNonNull(operationDayRule, "operationDayRule");
        Objects.requireNonNull(scheduleAbsentFields, "scheduleAbsentFields");
        var modes = new EnumMap<FlightList, ListMode>(FlightList.class);
        modes.putAll(listModes);
        modes.forEach((list, mode) -> {
            if (mode == ListMode.MERGE_BY_KEY && ListMode.mergeKey(list).isEmpty()) {
                throw new IllegalArgumentException(list + " has no key to merge by; only DELY, ERUT, SRVT and VIPF do");
            }
        });
        listModes = Collections.unmodifiableMap(modes);
    }

    /** The two knobs of the seeds, every list replaced. */
    public EngineSettings(OperationDayRule operationDayRule, AbsentFieldPolicy scheduleAbsentFields) {
        this(operationDayRule, scheduleAbsentFields, Map.of());
    }

    /** Airport zone Asia/Shanghai, day cut-over at midnight, absent schedule fields kept, lists replaced (the seeds). */
    public static EngineSettings defaults() {
        return new EngineSettings(OperationDayRule.defaults(), AbsentFieldPolicy.KEEP);
    }

    /** How a list {@code FLOP} for {@code list} lands. */
    public ListMode listMode(FlightList list) {
        return listModes.getOrDefault(list, ListMode.REPLACE);
    }
}
