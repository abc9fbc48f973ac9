package io.msgx.pipeline.record;

/** How an answer was matched to its request (seeds §7.2, {@code C-23}). */
public enum MatchMode {

    /** By our {@code SEQN} echoed in the answer's {@code RQSN}. */
    EXACT,

    /** Without an echo: by type, covered window and time; audited, may pair across generations. */
    DEGRADED
}
