package io.msgx.pipeline.published;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.codec.ReferenceDocument;
import io.msgx.pipeline.record.OutboxEvent;

import java.time.Instant;

/**
 * The value of a record on the {@code reference} topic (docs/consumers.md): {@code rtype}, {@code rkey}, {@code record}
 * (the whole record as stored in {@code REF_MASTER}, D-58), {@code msgId} (the inbound message that wrote it),
 * {@code updatedAt} (ISO-8601, when it was written) and {@code dedupKey} ({@link #dedupKey}). A removed record is a
 * tombstone (no value), so this is only written for a record that exists. {@code GET /reference/{type}/{key}} answers
 * the same object: one shape over HTTP and Kafka.
 */
public final class ReferenceEventJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReferenceEventJson() {
    }

    /**
     * The key that names one change of one reference record, {@code RTYPE:RKEY@msgId}: the same for every copy of that
     * change (it is also its {@code ce_id}), different for any other change. A record is only ever replaced by a change of
     * a message not older than its own, so a consumer keeps per {@code RTYPE:RKEY} the highest {@code msgId} it applied.
     */
    public static String dedupKey(String type, String key, long msgId) {
        return type + ":" + key + "@" + msgId;
    }

    public static String upsert(String type, String key, ReferenceDocument record, long msgId, Instant updatedAt) {
        var value = JSON.createObjectNode();
        value.put("rtype", type);
        value.put("rkey", key);
        value.set("record", record.node());
        value.put("msgId", msgId);
        value.put("updatedAt", OutboxEvent.committedAt(updatedAt).toString());
        value.put("dedupKey", dedupKey(type, key, msgId));
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the reference event of " + type + ":" + key + " could not be written", e);
        }
    }
}
