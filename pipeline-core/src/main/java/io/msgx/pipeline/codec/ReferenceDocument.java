package io.msgx.pipeline.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One reference record kept whole (sis-format §6), as an ordered JSON object (decision D-58). The element form:
 * <ul>
 *   <li>the record's child elements become members in document order of their first occurrence;</li>
 *   <li>an element with neither attributes nor children → its trimmed text as a string (an empty element → {@code ""});</li>
 *   <li>an element with attributes or children → an object: {@code "@NAME"} per attribute (in document order, value
 *       as written), then its children by these same rules, then {@code "#text"} when its trimmed text is not empty;</li>
 *   <li>an element that occurs more than once → an array of its values in document order (each by the rules above).</li>
 * </ul>
 * So {@code <STND>201</STND><STND>202</STND>} is {@code "STND":["201","202"]}, {@code <TRML MVIN="A">T2</TRML>}
 * is {@code "TRML":{"@MVIN":"A","#text":"T2"}}. XML names cannot start with {@code @} or {@code #}, so no member
 * name is ambiguous. What this form does not keep: how occurrences of <em>different</em> repeated names interleave
 * ({@code A B A} reads as {@code "A":[a1,a2],"B":b}), whitespace around texts, comments, and where text stood between
 * child elements. A flat object of strings (what {@code REF_MASTER.FIELDS} held before) is a document of this form.
 *
 * @param json the compact JSON text of the object; what is stored in {@code REF_MASTER} and published
 */
public record ReferenceDocument(String json) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Refuses a text that is not one JSON object; keeps it in compact form. */
    public ReferenceDocument {
        Objects.requireNonNull(json, "json");
        json = compact(parse(json));
    }

    /** The document of an object node (copied). */
    public static ReferenceDocument of(ObjectNode node) {
        return new ReferenceDocument(compact(node));
    }

    /** A flat document: one string member per entry, in the map's order. */
    public static ReferenceDocument flat(Map<String, String> fields) {
        var node = JSON.createObjectNode();
        fields.forEach(node::put);
        return of(node);
    }

    /** A fresh, mutable copy of the document's object. */
    public ObjectNode node() {
        return parse(json);
    }

    /** The top-level member names, in order. */
    public List<String> names() {
        var names = new ArrayList<String>();
        node().fieldNames().forEachRemaining(names::add);
        return names;
    }

    /**
     * The text of a top-level member: its string, or the {@code "#text"} of an element with attributes or children
     * ({@code ""} when it has none); empty when absent or repeated (an array).
     */
    public Optional<String> text(String name) {
        JsonNode member = node().get(name);
        if (member == null || member.isArray()) {
            return Optional.empty();
        }
        if (member.isObject()) {
            return Optional.of(member.path("#text").asText(""));
        }
        return Optional.of(member.asText());
    }

    /**
     * The {@link #text} of every top-level member that has one, in order: the whole record for a flat document, a
     * partial view (repeated members left out) otherwise. For reading simple records; {@link #node()} has everything.
     */
    public Map<String, String> texts() {
        var texts = new java.util.LinkedHashMap<String, String>();
        names().forEach(name -> text(name).ifPresent(text -> texts.put(name, text)));
        return texts;
    }

    @Override
    public String toString() {
        return json;
    }

    private static ObjectNode parse(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("a reference document is one JSON object, got: " + abbreviated(json));
            }
            return (ObjectNode) node;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a reference document is one JSON object (" + e.getOriginalMessage()
                    + "): " + abbreviated(json), e);
        }
    }

    private static String compact(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a reference document could not be written as JSON", e);
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
