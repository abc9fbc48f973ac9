package io.msgx.pipeline.record;

import io.msgx.pipeline.codec.ReferenceDocument;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored reference record ({@code REF_MASTER}, sis-format §6).
 *
 * @param type      the reference type ({@code GLST}, {@code AIRL}, ...): {@code RTYPE}
 * @param key       the text of the record's key element, its first element: {@code RKEY}
 * @param document  the whole record as the message that last wrote it carried it (D-58)
 * @param msgId     the mailbox message that last wrote the record
 * @param updatedAt when that message was processed
 */
public record ReferenceEntry(String type, String key, ReferenceDocument document, long msgId, Instant updatedAt) {

    public ReferenceEntry {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
