package io.msgx.pipeline.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.codec.ReferenceDocument;

import java.time.Instant;

/**
 * The value of a record on the {@code reference} topic (sis-format §8): {@code rtype}, {@code rkey}, {@code record}
 * (the whole record as stored in {@code REF_MASTER}, D-58), {@code msgId} (the inbound message that wrote it) and
 * {@code updatedAt} (ISO-8601, when it was written). A removed record is a tombstone (no value), so this is only
 * written for a record that exists.
 */
public final class ReferenceEventJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReferenceEventJson() {
    }

    public static String upsert(String type, String key, ReferenceDocument record, long msgId, Instant updatedAt) {
        var value = JSON.createObjectNode();
        value.put("rtype", type);
        value.put("rkey", key);
        value.set("record", record.node());
        value.put("msgId", msgId);
        value.put("updatedAt", updatedAt.toString());
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the reference event of " + type + ":" + key + " could not be written", e);
        }
    }
}
