package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
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
    static FlightRecord read(XmlElement record, String where, UnmappedPaths unmapped) {
        String path = record.name();
        record.attributes().keySet().forEach(name -> unmapped.attribute(path, name));
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
                if (!objects.add(child.name())) {
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
        FlightField textField = null;
        for (FlightField field : carried) {
            if (field.carrier() == FlightField.Carrier.ELEMENT) {
                textField = field;
                break;
            }
        }
        boolean childrenAsPairs = textField != null && textField.kind() == FlightField.Kind.EXCEPTION && element.hasChildren();
        if (textField != null) {
            fields.put(textField, FieldChange.of(scalarValue(textField, element, where)));
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
                unmapped.attribute(path, name);
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
                fields.put(field, FieldChange.of(withinValueLimit(child.trimmedText(), where, field.code())));
                unmapped.attributesAndChildrenOf(path, child);
            }
        }
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
                    unmapped.attribute(path, name);
                }
            } else if (list.hasItemField(name)) {
                put(values, name, attribute.getValue().trim(), where);
            } else {
                unmapped.attribute(path, name);
            }
        }
        for (XmlElement child : occurrence.children()) {
            if (list.hasItemField(child.name())) {
                put(values, child.name(), child.trimmedText(), where);
                unmapped.attributesAndChildrenOf(path, child);
            } else {
                unmapped.element(path, child);
            }
        }
        if (list.textField().isPresent()) {
            if (!occurrence.trimmedText().isEmpty()) {
                put(values, list.textField().get(), occurrence.trimmedText(), where);
            }
        } else {
            unmapped.text(path, occurrence);
        }
        return new ListItem(sourceSeq, values);
    }

    private static void put(Map<String, String> values, String code, String value, String where) {
        if (values.containsKey(code)) {
            throw new MalformedMessage(where + ": " + code + " appears twice");
        }
        values.put(code, withinValueLimit(value, where, code));
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
        if (value.length() > FlightField.MAX_VALUE_LENGTH) {
            throw new MalformedMessage(where + ": " + code + " is " + value.length() + " characters, longer than "
                    + FlightField.MAX_VALUE_LENGTH);
        }
        return value;
    }
}
