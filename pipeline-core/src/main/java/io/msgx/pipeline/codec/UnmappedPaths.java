package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The paths of what a message carried and the model does not map ({@link DecodeResult.Decoded#unmapped()}), each once,
 * in document order. A path names an element ({@code FLTR/XTRA}), an attribute ({@code FLOP/GTDT/@XTRA}) or the text
 * of an element no field takes ({@code FLOP/GTDT/#text}); an unknown element is named once, not its content.
 */
final class UnmappedPaths {

    /** Made at the first path: most records carry none, and each record of a package has its own collector. */
    private Set<String> paths;
    private Set<String> notTimes;
    /** The record whose values are kept ({@code FLTR}, {@code FLOP}), or null when only paths are collected. */
    private final String record;
    private List<ListItem> values;

    /** Paths only: the envelope's, a reference message's. */
    UnmappedPaths() {
        this.record = null;
    }

    private UnmappedPaths(String record) {
        this.record = record;
    }

    /**
     * Paths, and the values at them, of one flight record at {@code record} ({@code FLTR}, {@code FLOP}): what becomes
     * the flight's extension document ({@link #values()}, decision D-120).
     */
    static UnmappedPaths keepingValues(String record) {
        return new UnmappedPaths(record);
    }

    /** {@code child}, which nothing maps, under the element at {@code parent}. */
    void element(String parent, XmlElement child) {
        String path = parent + '/' + child.name();
        add(path);
        if (record != null) {
            keepWhole(path, child);
        }
    }

    /** Attribute {@code name} of the element at {@code path}, which nothing maps. */
    void attribute(String path, String name) {
        add(path + "/@" + name);
    }

    /** Attribute {@code name} of the element at {@code path}, which nothing maps, and its {@code value}. */
    void attribute(String path, String name, String value) {
        attribute(path, name);
        keep(path + "/@" + name, value);
    }

    /** The text of the element at {@code path}, when it has any besides white space: no field takes it. */
    void text(String path, XmlElement element) {
        if (!element.trimmedText().isEmpty()) {
            add(path + "/#text");
            keep(path + "/#text", element.trimmedText());
        }
    }

    /** Every attribute and child element of the element at {@code path}, whose text alone is mapped. */
    void attributesAndChildren(String path, XmlElement element) {
        element.attributes().forEach((name, value) -> attribute(path, name, value));
        element.children().forEach(child -> element(path, child));
    }

    /**
     * What an element nobody knows holds, leaf by leaf: its attributes, its text (at its own path when it has no
     * children, at {@code /#text} beside them when it has), and its children the same way.
     */
    private void keepWhole(String path, XmlElement element) {
        element.attributes().forEach((name, value) -> keep(path + "/@" + name, value));
        if (!element.hasChildren()) {
            keep(path, element.trimmedText());
            return;
        }
        if (!element.trimmedText().isEmpty()) {
            keep(path + "/#text", element.trimmedText());
        }
        for (XmlElement child : element.children()) {
            keepWhole(path + '/' + child.name(), child);
        }
    }

    /** One value of the extension document, at its path relative to the record; too long a text is cut (D-120). */
    private void keep(String path, String value) {
        if (record == null) {
            return;
        }
        if (values == null) {
            values = new ArrayList<>();
        }
        String relative = path.startsWith(record + '/') ? path.substring(record.length() + 1) : path;
        var item = new LinkedHashMap<String, String>(4);
        item.put("PATH", cut(relative));
        item.put("VALUE", value == null ? null : cut(value));
        values.add(new ListItem(null, item));
    }

    private static String cut(String text) {
        int limit = FlightList.EXTENSIONS.maxValueLength("VALUE");
        return text.length() <= limit ? text : text.substring(0, limit - 1) + '…';
    }

    /** The values kept, in document order, as items of {@link FlightList#EXTENSIONS}; empty when none (or paths only). */
    List<ListItem> values() {
        return values == null ? List.of() : List.copyOf(values);
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

    /** A time field at {@code path} whose value is no time: mapped and kept as sent, but reported (v3 §10). */
    void notATime(String path) {
        if (notTimes == null) {
            notTimes = new LinkedHashSet<>();
        }
        notTimes.add(path);
    }

    /** The paths {@link #notATime} collected, in the order first seen. */
    List<String> notTimes() {
        return notTimes == null ? List.of() : List.copyOf(notTimes);
    }

    /** Every path {@code other} collected, after those collected so far. */
    void addAll(UnmappedPaths other) {
        if (other.paths != null) {
            other.paths.forEach(this::add);
        }
        if (other.notTimes != null) {
            other.notTimes.forEach(this::notATime);
        }
    }

    /** The paths collected so far, in the order first seen. */
    List<String> toList() {
        return paths == null ? List.of() : List.copyOf(paths);
    }

    private void add(String path) {
        if (paths == null) {
            paths = new LinkedHashSet<>();
        }
        paths.add(path);
    }
}
