package io.msgx.pipeline.audit;

/**
 * The operator actions the audit trail records (D-137), one constant per action of the operator API; the code is what
 * {@code OPERATOR_AUDIT.ACTION} holds and what {@code audit --action} filters on.
 */
public enum AuditAction {
    REPLAY("replay"),
    REPLAY_CLASS("replay-class"),
    SKIP("skip"),
    BACKFILL_REOPEN("backfill-reopen"),
    BACKFILL_RECONCILE("backfill-reconcile"),
    EVENTS_RESEND("events-resend"),
    EVENTS_RESEND_ALL("events-resend-all"),
    EVENTS_PURGE("events-purge"),
    EVENTS_REARM("events-rearm"),
    REQUEST_SCHEDULE("request-schedule"),
    REQUEST_REFERENCE("request-reference");

    /** The width of {@code OPERATOR_AUDIT.ACTION}. */
    public static final int MAX_CODE_LENGTH = 32;

    private final String code;

    AuditAction(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
