package io.msgx.pipeline.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One element of a parsed message: its name, attributes (in document order), its own text (all its character data outside
 * child elements, trimmed: every reader trims, so it is trimmed once here) and its child elements in document order.
 *
 * <p>Every message is a tree of these, and the codec walks each several times, so the accessors below are loops
 * that allocate nothing they do not return (streams here were a tenth of the pump's CPU in the bench, issue 22).
 */
record XmlElement(String name, Map<String, String> attributes, String text, List<XmlElement> children) {

    XmlElement {
        attributes = attributes.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        children = List.copyOf(children);
        text = text.trim();
    }

    String trimmedText() {
        return text;
    }

    /** Neither attributes, children nor text: {@code <STND/>}, {@code <STND></STND>}. */
    boolean isBare() {
        return attributes.isEmpty() && children.isEmpty() && text.isEmpty();
    }

    boolean hasChildren() {
        return !children.isEmpty();
    }

    List<XmlElement> children(String childName) {
        List<XmlElement> found = null;
        for (XmlElement child : children) {
            if (child.name.equals(childName)) {
                if (found == null) {
                    found = new ArrayList<>(2);
                }
                found.add(child);
            }
        }
        return found == null ? List.of() : found;
    }

    /** The child of that name, empty when absent; twice is malformed ("{@code where}: X appears twice"). */
    Optional<XmlElement> only(String childName, String where) {
        XmlElement found = null;
        for (XmlElement child : children) {
            if (child.name.equals(childName)) {
                if (found != null) {
                    throw new MalformedMessage(where + ": " + childName + " appears twice");
                }
                found = child;
            }
        }
        return Optional.ofNullable(found);
    }
}
