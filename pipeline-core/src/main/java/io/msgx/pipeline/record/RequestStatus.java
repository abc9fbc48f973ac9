package io.msgx.pipeline.record;

/** The request state machine (seeds §7.2): {@code PENDING → SENT → DONE}, and any open state {@code → EXPIRED}. */
public enum RequestStatus {

    /** Registered; its {@code COUTMSGS} write is not confirmed yet. Open. */
    PENDING,

    /** Its {@code COUTMSGS} write is confirmed and linked; waiting for the answer. Open. */
    SENT,

    /** Answered and the answer processed. Closed. */
    DONE,

    /** Superseded by a newer request for the same key, or timed out. Closed. */
    EXPIRED;

    /** PENDING and SENT: at most one open request per key. */
    public boolean isOpen() {
        return this == PENDING || this == SENT;
    }
}
