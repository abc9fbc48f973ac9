package io.msgx.pipeline.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the stores keep a reference record's fields in {@code REF_MASTER.FIELDS}: one JSON object of strings, in the
 * answer's order (an empty value stays {@code ""} inside the JSON). For the implementations of {@link ReferenceData};
 * the column type and the SQL stay with each adapter.
 */
public final class ReferenceFieldsJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, String>> FIELDS = new TypeReference<>() {
    };

    private ReferenceFieldsJson() {
    }

    /** The fields as the JSON object {@code FIELDS} holds. */
    public static String write(Map<String, String> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("reference fields could not be written as JSON: " + fields, e);
        }
    }

    /** The fields of record {@code type}/{@code key} from its {@code FIELDS}, in their stored order. */
    public static Map<String, String> read(String type, String key, String json) {
        try {
            return JSON.readValue(json, FIELDS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("REF_MASTER " + type + "/" + key + " holds FIELDS that are not a JSON object"
                    + " of strings (" + e.getOriginalMessage() + "); fix or delete the row, the next answer rewrites it", e);
        }
    }
}
