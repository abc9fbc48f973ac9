package io.msgx.pipeline.codec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One record of a reference answer, e.g. {@code <GATE><GTCD>G28</GTCD><DESC>..</DESC></GATE>}.
 *
 * @param key    the text of the record's first child element ({@code G28})
 * @param fields every child element's trimmed text by element name, in document order, the key element
 *               first; an empty element is kept as an empty string
 */
public record ReferenceRecord(String key, Map<String, String> fields) {

    public ReferenceRecord {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("a reference record needs a key");
        }
        Objects.requireNonNull(fields, "fields");
        if (fields.isEmpty() || !key.equals(fields.values().iterator().next())) {
            throw new IllegalArgumentException("the key '" + key + "' must be the value of the first field: " + fields);
        }
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
}
