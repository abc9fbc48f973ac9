package io.msgx.pipeline.port;

import io.msgx.pipeline.record.ReferenceEvent;
import io.msgx.pipeline.record.ReferenceOutboxEntry;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The {@code KAFKA:ref} rows of the outbox (reference data, D-60): one per record, replaced by later changes. */
public interface ReferenceNotifications {

    /**
     * Write the {@code KAFKA:ref} rows of reference changes, in the order given: one row per {@code RTYPE:RKEY},
     * replaced (new {@code EVENT_ID}, back to {@code PENDING}, attempts and error cleared) unless it holds the change of
     * a later message ({@code STATE_VERSION} = the message's ID). A key appears at most once in {@code events}.
     */
    void upsertReferences(List<ReferenceEvent> events);

    /** The {@code KAFKA:ref} rows that are {@code PENDING} and due, in {@code EVENT_ID} order, at most {@code limit}. */
    List<ReferenceOutboxEntry> dueReferences(Instant now, int limit);

    /** The {@code KAFKA:ref} row of one record, whatever its state; empty when there is none (or it was cleaned up). */
    Optional<ReferenceOutboxEntry> referenceEvent(String type, String key);

    /**
     * Confirm delivered {@code KAFKA:ref} rows by {@code EVENT_ID}, only while {@code PENDING}; returns how many. A row
     * replaced meanwhile has a new {@code EVENT_ID} and stays pending, so its newer change goes out next round.
     */
    int markReferencesSent(Collection<Long> eventIds, Instant sentAt);
}
