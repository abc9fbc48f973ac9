package io.msgx.pipeline.audit;

/** What came of an operator action, as {@code OPERATOR_AUDIT.OUTCOME} records it. */
public enum AuditOutcome {
    /** Everything asked for was done (or there was nothing to do). */
    DONE,
    /** Some of what was asked for was done, the rest refused (the row says which). */
    PARTLY,
    /** Nothing changed: the action refused all of it (the row says why). */
    REFUSED
}
