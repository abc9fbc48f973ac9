package io.msgx.pipeline.codec;

import java.util.Map;
import java.util.Objects;

/**
 * One record of a reference message, e.g. {@code <GLST><GCOD>G17</GCOD><GTNM>Gate 17</GTNM></GLST>}, kept whole.
 *
 * @param key      the trimmed text of the record's first child element ({@code G17}): {@code RKEY}
 * @param document the whole record ({@link ReferenceDocument}, decision D-58), the key element first
 */
public record ReferenceRecord(String key, ReferenceDocument document) {

    public ReferenceRecord {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("a reference record needs a key");
        }
        Objects.requireNonNull(document, "document");
        if (document.names().isEmpty()) {
            throw new IllegalArgumentException("the record of key '" + key + "' has no element: " + document);
        }
    }

    /** A flat record: one text per element, in the map's order, the key element first. */
    public ReferenceRecord(String key, Map<String, String> fields) {
        this(key, flatWithKeyFirst(key, fields));
    }

    private static ReferenceDocument flatWithKeyFirst(String key, Map<String, String> fields) {
        Objects.requireNonNull(fields, "fields");
        if (fields.isEmpty() || !Objects.equals(key, fields.values().iterator().next())) {
            throw new IllegalArgumentException("the key '" + key + "' must be the value of the first field: " + fields);
        }
        return ReferenceDocument.flat(fields);
    }
}
