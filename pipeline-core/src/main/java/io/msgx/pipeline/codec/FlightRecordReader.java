package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.SisTime;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads one flight record, a schedule's {@code FLTR} or a {@code FLOP} body, into its {@code FLID} and
 * {@link FlightPatch}, and names what it carried that nothing maps. The rules are those of {@link XmlCodec}.
 */
final class FlightRecordReader {

    private FlightRecordReader() {
    }

    /**
     * @param where    how reasons name the record, e.g. {@code FLTR #2} or {@code FLOP}
     * @param unmapped collects the paths of what nothing maps, from the record's element name ({@code FLTR/XTRA})
     */
    static FlightRecord read(XmlElement record, String where, UnmappedPaths message) {
        String path = record.name();
        var unmapped = UnmappedPaths.keepingValues(path);
        record.attributes().forEach((name, value) -> unmapped.attribute(path, name, value));
        unmapped.text(path, record);
        String flid = record.only("FLID", where).map(XmlElement::trimmedText).orElse(null);
        var fields = new EnumMap<FlightField, FieldChange>(FlightField.class);
        var occurrences = new EnumMap<FlightList, List<XmlElement>>(FlightList.class);
        Set<String> objects = new HashSet<>();
        for (XmlElement child : record.children()) {
            List<FlightField> carried = FlightField.carriedBy(child.name());
            if (child.name().equals("FLID")) {
                unmapped.attributesAndChildrenOf(path, child);
            } else if (!carried.isEmpty()) {
                if (!objects.add(child.name()) && !FlightField.repeatable(child.name())) {
                    throw new MalformedMessage(where + ": " + child.name() + " appears twice");
                }
                object(child, carried, fields, where, path, unmapped);
            } else {
                var list = FlightList.byCode(child.name());
                if (list.isPresent()) {
                    occurrences.computeIfAbsent(list.get(), l -> new ArrayList<>()).add(child);
                } else {
                    unmapped.element(path, child);
                }
            }
        }
        var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        occurrences.forEach((list, elements) -> lists.put(list, items(list, elements, where, path + '/' + list.code(), unmapped)));
        var extensions = unmapped.values();
        if (!extensions.isEmpty()) {
            lists.put(FlightList.EXTENSIONS, extensions);
        }
        message.addAll(unmapped);
        return new FlightRecord(flid, new FlightPatch(fields, lists));
    }

    /**
     * The fields one element carries: its text (an {@link FlightField.Carrier#ELEMENT} field), its attributes and its
     * children ({@code FDIV_DDES}, {@code PORT_POTM}); a bare element ({@code <FDIV/>}, {@code <STND/>}) clears them all.
     */
    private static void object(XmlElement element, List<FlightField> carried, Map<FlightField, FieldChange> fields,
                               String where, String parent, UnmappedPaths unmapped) {
        if (element.isBare()) {
            for (FlightField field : carried) {
                fields.put(field, FieldChange.Cleared.INSTANCE);
            }
            return;
        }
        var occurrence = new EnumMap<FlightField, FieldChange>(FlightField.class);
        parts(element, carried, occurrence, where, parent, unmapped);
        indicated(element, carried, occurrence);
        fields.putAll(occurrence); // a repeated element (PORT) sets what it says; the later says last
    }

    /**
     * The {@link FlightField.Carrier#INDICATOR} field a {@code <PORT>} names by its {@code POID} ({@code O}: door open,
     * {@code C}: door close) takes its {@code POTM}: set, or cleared by an empty {@code POTM}. Any other {@code POID}
     * leaves only the last-seen pair ({@code PORT_POTM}, {@code PORT_POID}).
     */
    private static void indicated(XmlElement element, List<FlightField> carried, Map<FlightField, FieldChange> fields) {
        if (carried.stream().noneMatch(field -> field.carrier() == FlightField.Carrier.INDICATOR)) {
            return;
        }
        var indicator = element.children("POID");
        var time = fields.get(FlightField.PORT_POTM);
        if (indicator.size() != 1 || time == null) {
            return;
        }
        switch (indicator.get(0).trimmedText().toUpperCase(java.util.Locale.ROOT)) {
            case "O" -> fields.put(FlightField.PORT_OPEN, time);
            case "C" -> fields.put(FlightField.PORT_CLOSE, time);
            default -> {
                // neither open nor close: the last-seen pair keeps it
            }
        }
    }

    private static void parts(XmlElement element, List<FlightField> carried, Map<FlightField, FieldChange> fields,
                              String where, String parent, UnmappedPaths unmapped) {
        FlightField textField = null;
        for (FlightField field : carried) {
            if (field.carrier() == FlightField.Carrier.ELEMENT) {
                textField = field;
                break;
            }
        }
        boolean childrenAsPairs = textField != null && textField.kind() == FlightField.Kind.EXCEPTION && element.hasChildren();
        if (textField != null) {
            fields.put(textField, FieldChange.of(timeChecked(textField, scalarValue(textField, element, where),
                    parent + '/' + element.name(), unmapped)));
            if (element.attributes().isEmpty() && !element.hasChildren()) {
                return; // text only, and the text field took it: the common case, no path to build
            }
        }
        String path = parent + '/' + element.name();
        if (textField == null || childrenAsPairs) {
            unmapped.text(path, element);
        }
        element.attributes().forEach((name, value) -> {
            FlightField field = part(carried, FlightField.Carrier.ATTRIBUTE, name);
            if (field == null) {
                unmapped.attribute(path, name, value);
            } else {
                fields.put(field, FieldChange.of(withinValueLimit(value.trim(), where, field.code())));
            }
        });
        for (XmlElement child : element.children()) {
            if (childrenAsPairs) {
                unmapped.attributesAndChildrenOf(path, child);
                continue;
            }
            FlightField field = part(carried, FlightField.Carrier.CHILD, child.name());
            if (field == null) {
                unmapped.element(path, child);
            } else {
                if (fields.containsKey(field)) {
                    throw new MalformedMessage(where + ": " + element.name() + '/' + child.name() + " appears twice");
                }
                fields.put(field, FieldChange.of(timeChecked(field, withinValueLimit(child.trimmedText(), where,
                        field.code()), path + '/' + child.name(), unmapped)));
                unmapped.attributesAndChildrenOf(path, child);
            }
        }
    }

    /** {@code value}, reported at {@code path} when {@code field} holds a time and the value is none (D-121). */
    private static String timeChecked(FlightField field, String value, String path, UnmappedPaths unmapped) {
        if (field.kind() == FlightField.Kind.TIME && !value.isEmpty() && SisTime.parse(value).isEmpty()) {
            unmapped.notATime(path);
        }
        return value;
    }

    private static FlightField part(List<FlightField> carried, FlightField.Carrier carrier, String name) {
        for (FlightField field : carried) {
            if (field.carrier() == carrier && field.part().equals(name)) {
                return field;
            }
        }
        return null;
    }

    private static String scalarValue(FlightField field, XmlElement element, String where) {
        String value = field.kind() == FlightField.Kind.EXCEPTION && element.hasChildren()
                ? element.children().stream()
                        .map(child -> child.name() + '=' + child.trimmedText())
                        .collect(Collectors.joining(";"))
                : element.trimmedText();
        return withinValueLimit(value, where, field.code());
    }

    private static List<ListItem> items(FlightList list, List<XmlElement> occurrences, String where, String path,
                                        UnmappedPaths unmapped) {
        var items = new ArrayList<ListItem>(occurrences.size());
        for (int i = 0; i < occurrences.size(); i++) {
            XmlElement occurrence = occurrences.get(i);
            if (!occurrence.isBare()) {
                items.add(item(list, occurrence, where + ": " + list.code() + " #" + (i + 1), path, unmapped));
            }
        }
        return items;
    }

    /**
     * One item: the sequence attribute is {@code SOURCE_SEQ} (not a number: null, and the attribute is unmapped), the
     * other attributes and the children named by item fields fill them, the text fills the list's text field.
     */
    private static ListItem item(FlightList list, XmlElement occurrence, String where, String path, UnmappedPaths unmapped) {
        var values = new LinkedHashMap<String, String>();
        Integer sourceSeq = null;
        for (var attribute : occurrence.attributes().entrySet()) {
            String name = attribute.getKey();
            if (name.equals(list.sequenceAttribute())) {
                sourceSeq = sourceSeq(attribute.getValue());
                if (sourceSeq == null && !attribute.getValue().isBlank()) {
                    unmapped.attribute(path, name, attribute.getValue());
                }
            } else if (list.hasItemField(name)) {
                put(list, values, name, attribute.getValue().trim(), where);
            } else {
                unmapped.attribute(path, name, attribute.getValue());
            }
        }
        Map<String, List<Map<String, String>>> nested = null;
        for (XmlElement child : occurrence.children()) {
            var subFields = list.nestedItems().get(child.name());
            if (subFields != null) {
                if (nested == null) {
                    nested = new LinkedHashMap<>();
                }
                nested.computeIfAbsent(child.name(), name -> new ArrayList<>())
                        .add(subItem(child, subFields, path + '/' + child.name(), unmapped));
            } else if (list.hasItemField(child.name())) {
                put(list, values, child.name(), child.trimmedText(), where);
                unmapped.attributesAndChildrenOf(path, child);
            } else {
                unmapped.element(path, child);
            }
        }
        if (nested != null) {
            nested.forEach((code, subItems) -> put(list, values, code, NestedItems.write(subItems), where));
        }
        if (list.textField().isPresent()) {
            if (!occurrence.trimmedText().isEmpty()) {
                put(list, values, list.textField().get(), occurrence.trimmedText(), where);
            }
        } else {
            unmapped.text(path, occurrence);
        }
        return new ListItem(sourceSeq, values);
    }

    /** One nested sub-item ({@code VIPT} of a {@code VIPF}): its known children by name; the rest unmapped. */
    private static Map<String, String> subItem(XmlElement element, List<String> subFields, String path,
                                               UnmappedPaths unmapped) {
        element.attributes().forEach((name, value) -> unmapped.attribute(path, name, value));
        unmapped.text(path, element);
        var values = new LinkedHashMap<String, String>();
        for (XmlElement child : element.children()) {
            if (subFields.contains(child.name()) && !values.containsKey(child.name())) {
                values.put(child.name(), child.trimmedText());
                unmapped.attributesAndChildrenOf(path, child);
            } else {
                unmapped.element(path, child);
            }
        }
        return values;
    }

    private static void put(FlightList list, Map<String, String> values, String code, String value, String where) {
        if (values.containsKey(code)) {
            throw new MalformedMessage(where + ": " + code + " appears twice");
        }
        values.put(code, withinValueLimit(value, list.maxValueLength(code), where, code));
    }

    /** The upstream sequence; null when missing, blank or not an integer (sis-format §3: never a reason to refuse). */
    private static Integer sourceSeq(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code value}, or malformed naming {@code where} and {@code code} when it is longer than a column holds. */
    private static String withinValueLimit(String value, String where, String code) {
        return withinValueLimit(value, FlightField.MAX_VALUE_LENGTH, where, code);
    }

    private static String withinValueLimit(String value, int limit, String where, String code) {
        if (value.length() > limit) {
            throw new MalformedMessage(where + ": " + code + " is " + value.length() + " characters, longer than " + limit);
        }
        return value;
    }
}
