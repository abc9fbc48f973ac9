package io.msgx.pipeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Reads the body of a reference message (sis-format §6) into a {@link ReferenceAnswer}; the rules are those of
 * {@link XmlCodec} ("Reference messages").
 */
final class ReferenceBodyReader {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ReferenceBodyReader() {
    }

    static ReferenceAnswer read(XmlElement root, String type, ReferenceAction action) {
        Integer declaredCount = root.only("RECS", "MSG").map(SisMessageReader::declaredCount).orElse(null);
        List<XmlElement> top = root.children(type);
        if (top.isEmpty() && declaredCount == null) {
            throw SisMessageReader.payloadMissing(type);
        }
        var recordElements = new ArrayList<XmlElement>();
        for (XmlElement element : top) {
            if (isContainer(element)) {
                recordElements.addAll(element.children(type));
            } else {
                recordElements.add(element);
            }
        }
        var records = new ArrayList<ReferenceRecord>(recordElements.size());
        for (int i = 0; i < recordElements.size(); i++) {
            records.add(record(recordElements.get(i), type + " #" + (i + 1)));
        }
        return new ReferenceAnswer(type, action, declaredCount, records);
    }

    /**
     * The children of {@code MSG} that are neither {@code META}, {@code RECS} nor a record (or v1 container) of the
     * type, as {@code MSG/NAME}, each once, in document order. Everything inside a record is kept in its document.
     */
    static List<String> unmapped(XmlElement root, String type) {
        var paths = new LinkedHashSet<String>();
        for (XmlElement child : root.children()) {
            String name = child.name();
            if (!name.equals("META") && !name.equals("RECS") && !name.equals(type)) {
                paths.add("MSG/" + name);
            }
        }
        return List.copyOf(paths);
    }

    /**
     * The version-1 container form: a {@code <TYPE>} with a {@code <TYPE>} child that has children itself, or with no
     * child element at all ({@code <GATE/>}, an empty answer).
     */
    private static boolean isContainer(XmlElement element) {
        return !element.hasChildren()
                || element.children(element.name()).stream().anyMatch(XmlElement::hasChildren);
    }

    private static ReferenceRecord record(XmlElement record, String where) {
        if (!record.hasChildren()) {
            throw new MalformedMessage(where + " has no key element");
        }
        XmlElement keyElement = record.children().get(0);
        String key = keyElement.trimmedText();
        if (key.isEmpty()) {
            throw new MalformedMessage(where + ": key element " + keyElement.name() + " is empty");
        }
        var document = NODES.objectNode();
        record.attributes().forEach((name, value) -> document.put("@" + name, value));
        members(document, record.children());
        return new ReferenceRecord(key, ReferenceDocument.of(document));
    }

    /** The elements as members of {@code target}: by name in order of first occurrence, a repeated name as an array. */
    private static void members(ObjectNode target, List<XmlElement> elements) {
        Map<String, List<XmlElement>> byName = new LinkedHashMap<>();
        for (XmlElement element : elements) {
            byName.computeIfAbsent(element.name(), name -> new ArrayList<>()).add(element);
        }
        byName.forEach((name, occurrences) -> {
            if (occurrences.size() == 1) {
                target.set(name, value(occurrences.get(0)));
            } else {
                var array = target.putArray(name);
                occurrences.forEach(occurrence -> array.add(value(occurrence)));
            }
        });
    }

    private static JsonNode value(XmlElement element) {
        if (element.attributes().isEmpty() && !element.hasChildren()) {
            return NODES.textNode(element.trimmedText());
        }
        var object = NODES.objectNode();
        element.attributes().forEach((name, value) -> object.put("@" + name, value));
        members(object, element.children());
        if (!element.trimmedText().isEmpty()) {
            object.put("#text", element.trimmedText());
        }
        return object;
    }
}
