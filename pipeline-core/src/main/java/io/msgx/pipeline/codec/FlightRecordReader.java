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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads one flight record, a schedule's {@code FLTR} or a {@code FLOP} body, into its {@code FLID} and
 * {@link FlightPatch}. The rules are those of {@link XmlCodec}.
 */
final class FlightRecordReader {

    private FlightRecordReader() {
    }

    /** @param where how reasons name the record, e.g. {@code FLTR #2} or {@code FLOP} */
    static FlightRecord read(XmlElement record, String where) {
        String flid = record.only("FLID", where).map(XmlElement::trimmedText).orElse(null);
        var fields = new EnumMap<FlightField, FieldChange>(FlightField.class);
        var occurrences = new EnumMap<FlightList, List<XmlElement>>(FlightList.class);
        for (XmlElement child : record.children()) {
            Optional<FlightField> field = FlightField.byCode(child.name());
            if (field.isPresent()) {
                if (fields.containsKey(field.get())) {
                    throw new MalformedMessage(where + ": " + child.name() + " appears twice");
                }
                fields.put(field.get(), FieldChange.of(scalarValue(field.get(), child, where)));
            } else {
                FlightList.byCode(child.name())
                        .ifPresent(list -> occurrences.computeIfAbsent(list, l -> new ArrayList<>()).add(child));
            }
        }
        var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        occurrences.forEach((list, elements) -> lists.put(list, items(list, elements, where)));
        return new FlightRecord(flid, new FlightPatch(fields, lists));
    }

    private static String scalarValue(FlightField field, XmlElement element, String where) {
        String value = field.kind() == FlightField.Kind.EXCEPTION && element.hasChildren()
                ? element.children().stream()
                        .map(child -> child.name() + '=' + child.trimmedText())
                        .collect(Collectors.joining(";"))
                : element.trimmedText();
        return withinValueLimit(value, where + ": " + field.code());
    }

    private static List<ListItem> items(FlightList list, List<XmlElement> occurrences, String where) {
        if (occurrences.stream().allMatch(FlightRecordReader::isClearMarker)) {
            return List.of();
        }
        var items = new ArrayList<ListItem>();
        for (int i = 0; i < occurrences.size(); i++) {
            XmlElement occurrence = occurrences.get(i);
            if (!isClearMarker(occurrence)) {
                items.add(item(list, occurrence, where + ": " + list.code() + " #" + (i + 1)));
            }
        }
        return items;
    }

    private static boolean isClearMarker(XmlElement occurrence) {
        return occurrence.attributes().isEmpty() && !occurrence.hasChildren();
    }

    private static ListItem item(FlightList list, XmlElement occurrence, String where) {
        var values = new LinkedHashMap<String, String>();
        Set<String> seen = new HashSet<>();
        for (XmlElement child : occurrence.children()) {
            if (list.itemFields().contains(child.name())) {
                if (!seen.add(child.name())) {
                    throw new MalformedMessage(where + ": " + child.name() + " appears twice");
                }
                values.put(child.name(), withinValueLimit(child.trimmedText(), where + ": " + child.name()));
            }
        }
        return new ListItem(sourceSeq(list, occurrence, where), values);
    }

    private static Integer sourceSeq(FlightList list, XmlElement occurrence, String where) {
        String text = occurrence.attributes().get(list.sequenceAttribute());
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new MalformedMessage(where + ": " + list.sequenceAttribute() + " '" + text + "' is not an integer");
        }
    }

    private static String withinValueLimit(String value, String what) {
        if (value.length() > FlightField.MAX_VALUE_LENGTH) {
            throw new MalformedMessage(what + " is " + value.length() + " characters, longer than "
                    + FlightField.MAX_VALUE_LENGTH);
        }
        return value;
    }
}
