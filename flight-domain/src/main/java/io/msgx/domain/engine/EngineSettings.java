package io.msgx.domain.engine;

import io.msgx.domain.flight.OperationDayRule;

import java.util.Objects;

/** The engine's two policy knobs: the operation-day rule and what a full schedule means by an absent field. */
public record EngineSettings(OperationDayRule operationDayRule, AbsentFieldPolicy scheduleAbsentFields) {

    public EngineSettings {
        Objects.requireNonNull(operationDayRule, "operationDayRule");
        Objects.requireNonNull(scheduleAbsentFields, "scheduleAbsentFields");
    }

    /** Airport zone Asia/Shanghai, day cut-over at midnight, absent schedule fields kept (the seeds' rule). */
    public static EngineSettings defaults() {
        return new EngineSettings(OperationDayRule.defaults(), AbsentFieldPolicy.KEEP);
    }
}
