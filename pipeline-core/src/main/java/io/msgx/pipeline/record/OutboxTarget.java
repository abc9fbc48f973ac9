package io.msgx.pipeline.record;

/** Where an outbox row goes ({@code MSG_EVENT.TARGET}). */
public enum OutboxTarget {
    /** Change notifications: one row per event, delivered in {@code EVENT_ID} order per FLID. */
    KAFKA_MSG("KAFKA:msg"),
    /** Full-state projection: one row per FLID holding only the latest version. */
    KAFKA_SCHD("KAFKA:schd"),
    /**
     * Reference data (sis-format §8): one row per {@code RTYPE:RKEY} holding only its latest change (D-60). Written
     * and read through the outbox's reference methods ({@link ReferenceEvent}), never as an {@link OutboxEvent}.
     */
    KAFKA_REF("KAFKA:ref");

    private final String code;

    OutboxTarget(String code) {
        this.code = code;
    }

    /** The stored value, e.g. {@code KAFKA:msg}. */
    public String code() {
        return code;
    }

    public static OutboxTarget ofCode(String code) {
        for (var target : values()) {
            if (target.code.equals(code)) {
                return target;
            }
        }
        throw new IllegalArgumentException("unknown outbox target " + code);
    }
}
