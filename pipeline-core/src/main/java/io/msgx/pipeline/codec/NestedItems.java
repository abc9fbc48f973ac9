package io.msgx.pipeline.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text of an item field that holds repeated sub-items ({@code VIPT} of a {@code VIPF} record, sis-format v3 §10):
 * a JSON array of objects, one per sub-item in document order, each with the sub-item's children by name (decision
 * D-117). Kept as text so that the list stays one row per item in the store; {@link #read} gives the sub-items back to
 * whoever writes them out again as elements.
 */
public final class NestedItems {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<LinkedHashMap<String, String>>> SHAPE = new TypeReference<>() {
    };

    private NestedItems() {
    }

    /** The stored text of {@code subItems}. */
    public static String write(List<Map<String, String>> subItems) {
        try {
            return JSON.writeValueAsString(subItems);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sub-items of plain text cannot fail to serialise", e);
        }
    }

    /** The sub-items of a stored text; a text that is not such an array is a defect of whoever stored it. */
    public static List<Map<String, String>> read(String text) {
        try {
            return List.copyOf(JSON.readValue(text, SHAPE)); // each map keeps its document order
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a nested item list: " + text, e);
        }
    }
}
