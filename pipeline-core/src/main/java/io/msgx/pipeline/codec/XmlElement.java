package io.msgx.pipeline.codec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One element of a parsed message: its name, attributes (in document order), its own text (all its character data outside
 * child elements, untrimmed) and its child elements in document order.
 */
record XmlElement(String name, Map<String, String> attributes, String text, List<XmlElement> children) {

    XmlElement {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        children = List.copyOf(children);
    }

    String trimmedText() {
        return text.trim();
    }

    boolean hasChildren() {
        return !children.isEmpty();
    }

    List<XmlElement> children(String childName) {
        return children.stream().filter(child -> child.name.equals(childName)).toList();
    }

    /** The child of that name, empty when absent; twice is malformed ("{@code where}: X appears twice"). */
    Optional<XmlElement> only(String childName, String where) {
        List<XmlElement> found = children(childName);
        if (found.size() > 1) {
            throw new MalformedMessage(where + ": " + childName + " appears twice");
        }
        return found.stream().findFirst();
    }
}
