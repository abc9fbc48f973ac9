package io.msgx.pipeline.codec;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The paths of what a message carried and the model does not map ({@link DecodeResult.Decoded#unmapped()}), each once,
 * in document order. A path names an element ({@code FLTR/XTRA}), an attribute ({@code FLOP/GTDT/@XTRA}) or the text
 * of an element no field takes ({@code FLOP/GTDT/#text}); an unknown element is named once, not its content.
 */
final class UnmappedPaths {

    private final Set<String> paths = new LinkedHashSet<>();

    /** {@code child}, which nothing maps, under the element at {@code parent}. */
    void element(String parent, XmlElement child) {
        paths.add(parent + '/' + child.name());
    }

    /** Attribute {@code name} of the element at {@code path}, which nothing maps. */
    void attribute(String path, String name) {
        paths.add(path + "/@" + name);
    }

    /** The text of the element at {@code path}, when it has any besides white space: no field takes it. */
    void text(String path, XmlElement element) {
        if (!element.trimmedText().isEmpty()) {
            paths.add(path + "/#text");
        }
    }

    /** Every attribute and child element of the element at {@code path}, whose text alone is mapped. */
    void attributesAndChildren(String path, XmlElement element) {
        element.attributes().keySet().forEach(name -> attribute(path, name));
        element.children().forEach(child -> element(path, child));
    }

    /**
     * {@link #attributesAndChildren} of {@code child} of the element at {@code parent}; its path is only built when it
     * has any (the common case has neither).
     */
    void attributesAndChildrenOf(String parent, XmlElement child) {
        if (!child.attributes().isEmpty() || child.hasChildren()) {
            attributesAndChildren(parent + '/' + child.name(), child);
        }
    }

    /** Every path {@code other} collected, after those collected so far. */
    void addAll(UnmappedPaths other) {
        paths.addAll(other.paths);
    }

    /** The paths collected so far, in the order first seen. */
    List<String> toList() {
        return List.copyOf(paths);
    }
}
