package io.msgx.pipeline.store;

import java.util.List;

/** {@code MSG_EVENT}: the transactional outbox. Event IDs come from one global sequence. */
public interface Outbox {

    /** Append a {@code KAFKA:msg} notification with a new {@code EVENT_ID}; returns it. */
    long append(OutboxEvent notification);

    /**
     * Write the {@code KAFKA:schd} projection of a FLID: one row per FLID, replaced (new {@code EVENT_ID},
     * back to {@code PENDING}, attempts and error cleared) only when the event's version is not older than
     * the row's. True when written, false when a newer version is already there.
     */
    boolean upsertProjection(OutboxEvent projection);

    /** Undelivered rows of a target in {@code EVENT_ID} order, at most {@code limit}. */
    List<OutboxEntry> pending(OutboxTarget target, int limit);
}
