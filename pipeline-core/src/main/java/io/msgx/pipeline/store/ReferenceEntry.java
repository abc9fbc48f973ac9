package io.msgx.pipeline.store;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One stored reference record ({@code REF_MASTER}, sis-format §6).
 *
 * @param type      the reference type ({@code GATE}, {@code AIRL}, ...)
 * @param key       the value of the record's key element, its first field
 * @param fields    every field by element name, in the order of the answer that last wrote the record
 * @param msgId     the mailbox message that last wrote the record
 * @param updatedAt when that message was processed
 */
public record ReferenceEntry(String type, String key, Map<String, String> fields, long msgId, Instant updatedAt) {

    public ReferenceEntry {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(updatedAt, "updatedAt");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(fields, "fields")));
    }
}
