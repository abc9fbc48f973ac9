package io.msgx.pipeline.record;

import io.msgx.pipeline.port.ReferenceData;

import java.time.Instant;
import java.util.Objects;

/**
 * A change of one reference record to publish on the {@code reference} topic ({@code KAFKA:ref}, sis-format §8), as
 * the reference processor writes it in the transaction that changed {@code REF_MASTER}. The outbox keeps one row per
 * record ({@link #partitionKey()}), the latest change (D-60).
 *
 * @param type      {@code RTYPE}
 * @param key       {@code RKEY}
 * @param eventType {@code UPSERT} (the record was written) or {@code TOMBSTONE} (it was removed)
 * @param msgId     the mailbox message that made the change; a row is only replaced by a change of a message not
 *                  older than its own ({@code MSG_EVENT.STATE_VERSION} holds it)
 * @param payload   the JSON value to send; null exactly for a tombstone
 */
public record ReferenceEvent(String type, String key, OutboxEvent.EventType eventType, long msgId, String payload,
                             Instant createdAt) {

    /** The width of {@code MSG_EVENT.PARTITION_KEY}: {@code RTYPE} (16), ':' and {@code RKEY} (64). */
    public static final int MAX_PARTITION_KEY_LENGTH = ReferenceData.MAX_TYPE_LENGTH + 1 + ReferenceData.MAX_KEY_LENGTH;

    public ReferenceEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(createdAt, "createdAt");
        createdAt = OutboxEvent.committedAt(createdAt);
        if (type.isEmpty() || type.length() > ReferenceData.MAX_TYPE_LENGTH || type.indexOf(':') >= 0) {
            throw new IllegalArgumentException("reference type '" + type + "' must be 1 to "
                    + ReferenceData.MAX_TYPE_LENGTH + " characters without ':'");
        }
        if (key.isEmpty() || key.length() > ReferenceData.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(type + " key '" + key + "' must be 1 to " + ReferenceData.MAX_KEY_LENGTH
                    + " characters");
        }
        if ((payload == null) != (eventType == OutboxEvent.EventType.TOMBSTONE)) {
            throw new IllegalArgumentException("a reference " + eventType + " of " + type + ":" + key
                    + (payload == null ? " needs a payload" : " carries no payload"));
        }
    }

    /** The Kafka key and {@code MSG_EVENT.PARTITION_KEY}: {@code RTYPE:RKEY}. */
    public String partitionKey() {
        return type + ":" + key;
    }

    /** The event of a stored partition key ({@code RTYPE:RKEY}); the type never holds ':', the key may. */
    public static ReferenceEvent of(String partitionKey, OutboxEvent.EventType eventType, long msgId, String payload,
                                    Instant createdAt) {
        int colon = partitionKey.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("a KAFKA:ref partition key is RTYPE:RKEY, got '" + partitionKey + "'");
        }
        return new ReferenceEvent(partitionKey.substring(0, colon), partitionKey.substring(colon + 1), eventType, msgId,
                payload, createdAt);
    }
}
