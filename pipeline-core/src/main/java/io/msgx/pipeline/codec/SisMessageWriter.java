package io.msgx.pipeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.ScheduleMessage;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes messages in the exact shape of sis-format.md, refusing what decoding would not give back
 * (see {@link XmlCodec}, "Encoding").
 */
final class SisMessageWriter {

    /** {@code DVAP=CTU;DVTM=11MAR241030}: an exception value written as child elements. */
    private static final Pattern EXCEPTION_PAIRS = Pattern.compile("[A-Z][A-Z0-9]*=[^;=]*(?:;[A-Z][A-Z0-9]*=[^;=]*)*");
    private static final Pattern ELEMENT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

    String write(MessageMeta meta, FlightMessage message) {
        MsgKind named = MsgKind.of(meta.type(), meta.subtype(), Set.of());
        MsgKind carried = MsgKind.of(message);
        if (!named.equals(carried)) {
            throw new IllegalArgumentException("META names TYPE=" + meta.type() + " STYP=" + meta.subtype() + " (" + named
                    + ") but the message is " + carried);
        }
        var out = new Out();
        out.open("MSG");
        meta(out, meta);
        message.match(new FlightMessage.Cases<Void>() {
            @Override
            public Void schedule(ScheduleMessage schedule) {
                out.open("SCHD");
                if (schedule.declaredCount() != null) {
                    out.leaf("RECS", schedule.declaredCount().toString(), "RECS");
                }
                List<FlightRecord> records = schedule.records();
                for (int i = 0; i < records.size(); i++) {
                    record(out, "FLTR", records.get(i).flid(), records.get(i).patch(), "FLTR #" + (i + 1));
                }
                out.close("SCHD");
                return null;
            }

            @Override
            public Void operation(FlightOperation operation) {
                record(out, "FLOP", operation.flid(), operation.patch(), "FLOP");
                return null;
            }

            @Override
            public Void deletion(FlightDeletion deletion) {
                record(out, meta.type(), deletion.flid(), FlightPatch.empty(), meta.type());
                return null;
            }

            @Override
            public Void batch(FlightBatch batch) {
                if (!batch.deletes()) {
                    for (int i = 0; i < batch.parts().size(); i++) {
                        var operation = (FlightOperation) batch.parts().get(i);
                        record(out, "FLOP", operation.flid(), operation.patch(), "FLOP #" + (i + 1));
                    }
                    return null;
                }
                if (!meta.type().equals("SCHD")) {
                    throw new IllegalArgumentException("a list of deletions is a SCHD/DEL package, not TYPE="
                            + meta.type());
                }
                out.open("SCHD");
                if (batch.declaredCount() != null) {
                    out.leaf("RECS", batch.declaredCount().toString(), "RECS");
                }
                for (int i = 0; i < batch.parts().size(); i++) {
                    record(out, "FLTR", batch.flid(i), FlightPatch.empty(), "FLTR #" + (i + 1));
                }
                out.close("SCHD");
                return null;
            }
        });
        out.close("MSG");
        return out.toString();
    }

    String write(MessageMeta meta, ReferenceAnswer answer) {
        if (!meta.type().equals(answer.referenceType()) || !meta.subtype().equals(answer.action().name())) {
            throw new IllegalArgumentException("a " + answer.referenceType() + " " + answer.action() + " message needs TYPE="
                    + answer.referenceType() + " STYP=" + answer.action() + ", not TYPE=" + meta.type() + " STYP="
                    + meta.subtype());
        }
        String type = name(answer.referenceType(), "reference type");
        var out = new Out();
        out.open("MSG");
        meta(out, meta);
        if (answer.declaredCount() != null) {
            out.leaf("RECS", answer.declaredCount().toString(), "RECS");
        } else if (answer.records().isEmpty()) {
            out.empty(type);
        }
        for (ReferenceRecord record : answer.records()) {
            element(out, type, record.document().node(), type + " " + record.key());
        }
        out.close("MSG");
        return out.toString();
    }

    /** A value of a reference document (D-58) as the element(s) it was read from. */
    private static void element(Out out, String name, JsonNode value, String where) {
        name(name, where + " element");
        if (value.isArray()) {
            for (JsonNode item : value) {
                if (item.isArray()) {
                    throw new IllegalArgumentException(where + ": " + name + " holds an array in an array");
                }
                element(out, name, item, where);
            }
        } else if (value.isObject()) {
            var attributes = new LinkedHashMap<String, String>();
            var children = new ArrayList<Map.Entry<String, JsonNode>>();
            String text = null;
            for (var members = value.fields(); members.hasNext(); ) {
                var member = members.next();
                if (member.getKey().startsWith("@")) {
                    attributes.put(name(member.getKey().substring(1), where + " attribute"), member.getValue().asText());
                } else if (member.getKey().equals("#text")) {
                    text = member.getValue().asText();
                } else {
                    children.add(member);
                }
            }
            if (attributes.isEmpty() && children.isEmpty()) {
                throw new IllegalArgumentException(where + ": " + name + " is an object with neither attributes nor"
                        + " children, which decoding would read as a text");
            }
            out.open(name, attributes);
            if (text != null) {
                out.text(text, where + " " + name);
            }
            children.forEach(child -> element(out, child.getKey(), child.getValue(), where));
            out.close(name);
        } else {
            out.leaf(name, value.asText(), where + " " + name);
        }
    }

    private static void meta(Out out, MessageMeta meta) {
        out.open("META");
        out.leaf("SNDR", meta.sender(), "SNDR");
        if (meta.receiver() != null) {
            out.leaf("RCVR", meta.receiver(), "RCVR");
        }
        out.leaf("SEQN", meta.sequence(), "SEQN");
        out.leaf("DTTM", SisMessageReader.DTTM.format(meta.sentAt()), "DTTM");
        out.leaf("TYPE", meta.type(), "TYPE");
        out.leaf("STYP", meta.subtype(), "STYP");
        if (meta.requestSequence() != null) {
            out.leaf("RQSN", meta.requestSequence(), "RQSN");
        }
        out.close("META");
    }

    private static void record(Out out, String element, String flid, FlightPatch patch, String where) {
        out.open(element);
        if (flid != null) {
            out.leaf("FLID", flid, where + ": FLID");
        }
        var byElement = new LinkedHashMap<String, Map<FlightField, FieldChange>>();
        patch.fields().forEach((field, change) ->
                byElement.computeIfAbsent(field.element(), e -> new EnumMap<>(FlightField.class)).put(field, change));
        byElement.forEach((name, changes) -> object(out, name, changes, where + ": " + name));
        // The extension document (what a message carried unknown, D-120) is not written: the raw message keeps it.
        patch.lists().forEach((list, items) -> {
            if (list.inMessages()) {
                list(out, list, items, where + ": " + list.code());
            }
        });
        out.close(element);
    }

    /**
     * One element and the fields it carries: the element's own field as its text, the others as its attributes
     * ({@code <FDIV DDES="HKG">}) or children ({@code <PORT><POTM>..</POTM></PORT>}); a clear of every field it carries
     * as the bare element ({@code <FDIV/>}). Refuses what decoding reads otherwise: a part without its element's own
     * field (decoding reads the text of every {@code FDIV} as its reason), and a clear of the element's own field alone
     * when it carries parts (decoding reads a bare {@code <FDIV/>} as a clear of them all).
     */
    private static void object(Out out, String name, Map<FlightField, FieldChange> changes, String where) {
        List<FlightField> carried = FlightField.carriedBy(name);
        if (changes.keySet().containsAll(carried)
                && changes.values().stream().allMatch(change -> change == FieldChange.Cleared.INSTANCE)) {
            out.empty(name);
            return;
        }
        if (FlightField.repeatable(name) && (changes.containsKey(FlightField.PORT_OPEN)
                || changes.containsKey(FlightField.PORT_CLOSE))) {
            doorTimes(out, changes, where);
            return;
        }
        FlightField textField = carried.stream()
                .filter(field -> field.carrier() == FlightField.Carrier.ELEMENT).findFirst().orElse(null);
        var attributes = new LinkedHashMap<String, String>();
        changes.forEach((field, change) -> {
            if (field.carrier() == FlightField.Carrier.ATTRIBUTE) {
                attributes.put(field.part(), change instanceof FieldChange.SetTo set
                        ? attributeValue(set.value(), where + " " + field.part()) : "");
            }
        });
        if (textField != null && !changes.containsKey(textField)) {
            throw new IllegalArgumentException(where + " carries " + changes.keySet() + " without " + textField
                    + ", which decoding reads from the text of every " + name);
        }
        if (textField != null && changes.get(textField) == FieldChange.Cleared.INSTANCE && attributes.isEmpty()) {
            throw new IllegalArgumentException(where + " clears " + textField + " alone, but a bare <" + name
                    + "/> clears all of " + carried);
        }
        String text = textField != null && changes.get(textField) instanceof FieldChange.SetTo set
                ? withinValueLimit(set.value(), where) : "";
        boolean asPairs = textField != null && textField.kind() == FlightField.Kind.EXCEPTION
                && EXCEPTION_PAIRS.matcher(text).matches() && survivesAsPairs(text);
        var children = changes.entrySet().stream()
                .filter(entry -> entry.getKey().carrier() == FlightField.Carrier.CHILD).toList();
        if (text.isEmpty() && children.isEmpty()) {
            out.empty(name, attributes);
            return;
        }
        out.open(name, attributes);
        if (asPairs) {
            for (String pair : text.split(";", -1)) {
                int equals = pair.indexOf('=');
                String child = pair.substring(0, equals);
                String childValue = pair.substring(equals + 1);
                if (childValue.isEmpty()) {
                    out.empty(child);
                } else {
                    out.leaf(child, childValue, where + " " + child);
                }
            }
        } else {
            out.text(text, where);
        }
        for (var child : children) {
            if (child.getValue() instanceof FieldChange.SetTo set) {
                out.leaf(child.getKey().part(), withinValueLimit(set.value(), where + " " + child.getKey().part()),
                        where + " " + child.getKey().part());
            } else {
                out.empty(child.getKey().part());
            }
        }
        out.close(name);
    }

    /**
     * Door open and close as one {@code <PORT>} each, open first ({@code POTM}, {@code POID} {@code O} or {@code C}).
     * Decoding takes the last {@code PORT} as the pair {@code PORT_POTM}/{@code PORT_POID}, so a pair that says
     * otherwise is refused.
     */
    private static void doorTimes(Out out, Map<FlightField, FieldChange> changes, String where) {
        FieldChange lastTime = null;
        String lastIndicator = null;
        for (var door : List.of(Map.entry(FlightField.PORT_OPEN, "O"), Map.entry(FlightField.PORT_CLOSE, "C"))) {
            FieldChange time = changes.get(door.getKey());
            if (time == null) {
                continue;
            }
            out.open("PORT");
            if (time instanceof FieldChange.SetTo set) {
                out.leaf("POTM", withinValueLimit(set.value(), where + " POTM"), where + " POTM");
            } else {
                out.empty("POTM");
            }
            out.leaf("POID", door.getValue(), where + " POID");
            out.close("PORT");
            lastTime = time;
            lastIndicator = door.getValue();
        }
        FieldChange pairTime = changes.get(FlightField.PORT_POTM);
        FieldChange pairIndicator = changes.get(FlightField.PORT_POID);
        if (!lastTime.equals(pairTime) || !new FieldChange.SetTo(lastIndicator).equals(pairIndicator)) {
            throw new IllegalArgumentException(where + " carries PORT_POTM " + pairTime + " and PORT_POID " + pairIndicator
                    + ", but decoding reads the last PORT written (" + lastTime + ", " + lastIndicator + ") as that pair");
        }
    }

    private static String attributeValue(String value, String where) {
        String checked = withinValueLimit(value, where);
        if (!checked.equals(checked.trim())) {
            throw new IllegalArgumentException(where + " '" + value + "' has surrounding whitespace, which decoding would trim");
        }
        return checked;
    }

    private static boolean survivesAsPairs(String value) {
        for (String pair : value.split(";", -1)) {
            String childValue = pair.substring(pair.indexOf('=') + 1);
            if (!childValue.equals(childValue.trim())) {
                return false;
            }
        }
        return true;
    }

    private static void list(Out out, FlightList list, List<ListItem> items, String where) {
        if (items.isEmpty()) {
            out.empty(list.code());
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            item(out, list, items.get(i), where + " #" + (i + 1));
        }
    }

    /**
     * One item: its sequence and the list's attribute fields as attributes, its text field as text, the other fields
     * as children (sis-format v2: {@code <DELY CODE="93" STRT=".." DURA="0045">LATE INBOUND</DELY>}).
     */
    private static void item(Out out, FlightList list, ListItem item, String where) {
        for (String code : item.values().keySet()) {
            if (!list.itemFields().contains(code)) {
                throw new IllegalArgumentException(where + " carries " + code + ", which is not a " + list.code() + " field");
            }
        }
        var attributes = new LinkedHashMap<String, String>();
        // An item with neither sequence nor values gets a blank sequence, or it would read as a clear marker.
        String sequence = item.sourceSeq() != null ? item.sourceSeq().toString() : item.values().isEmpty() ? "" : null;
        if (sequence != null) {
            attributes.put(list.sequenceAttribute(), sequence);
        }
        for (String code : list.attributeFields()) {
            String value = item.get(code);
            if (value != null) {
                attributes.put(code, attributeValue(value, where + ": " + code));
            }
        }
        String text = list.textField().map(item::get).map(value -> withinValueLimit(value, where + ": "
                + list.textField().get())).orElse("");
        var children = list.itemFields().stream()
                .filter(code -> item.get(code) != null && !list.attributeFields().contains(code)
                        && !list.textField().map(code::equals).orElse(false))
                .toList();
        if (text.isEmpty() && children.isEmpty()) {
            out.empty(list.code(), attributes);
            return;
        }
        out.open(list.code(), attributes);
        out.text(text, where + ": " + list.textField().orElse(""));
        for (String code : children) {
            var subFields = list.nestedItems().get(code);
            if (subFields != null) {
                subItems(out, code, subFields, item.get(code), where + ": " + code);
            } else {
                out.leaf(code, withinValueLimit(item.get(code), where + ": " + code), where + ": " + code);
            }
        }
        out.close(list.code());
    }

    /** Nested sub-items ({@code VIPT} of a {@code VIPF}) as one element each, their known children in order. */
    private static void subItems(Out out, String name, List<String> subFields, String text, String where) {
        var subItems = NestedItems.read(text);
        if (subItems.isEmpty()) {
            throw new IllegalArgumentException(where + " holds no sub-item, which decoding would not give back");
        }
        for (var subItem : subItems) {
            if (!subFields.containsAll(subItem.keySet())) {
                throw new IllegalArgumentException(where + " carries " + subItem.keySet() + "; " + name + " has " + subFields);
            }
            if (subItem.isEmpty()) {
                out.empty(name);
                continue;
            }
            out.open(name);
            subItem.forEach((code, value) -> {
                if (value.isEmpty()) {
                    out.empty(code);
                } else {
                    out.leaf(code, withinValueLimit(value, where + " " + code), where + " " + code);
                }
            });
            out.close(name);
        }
    }

    private static String withinValueLimit(String value, String where) {
        if (value.length() > FlightField.MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException(where + " is " + value.length() + " characters, longer than "
                    + FlightField.MAX_VALUE_LENGTH);
        }
        return value;
    }

    private static String name(String name, String what) {
        if (!ELEMENT_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " '" + name + "' is not an XML element name");
        }
        return name;
    }

    /** A compact XML text under construction; checks that every text it writes is read back unchanged. */
    private static final class Out {
        private final StringBuilder xml = new StringBuilder(1024);

        void open(String name) {
            xml.append('<').append(name).append('>');
        }

        void open(String name, Map<String, String> attributes) {
            xml.append('<').append(name);
            attributes.forEach(this::attribute);
            xml.append('>');
        }

        void close(String name) {
            xml.append("</").append(name).append('>');
        }

        void empty(String name) {
            xml.append('<').append(name).append("/>");
        }

        void empty(String name, Map<String, String> attributes) {
            xml.append('<').append(name);
            attributes.forEach(this::attribute);
            xml.append("/>");
        }

        void leaf(String name, String text, String where) {
            open(name);
            text(text, where);
            close(name);
        }

        /** An element's own text, which decoding trims. */
        void text(String text, String where) {
            if (!text.equals(text.trim())) {
                throw new IllegalArgumentException(where + " '" + text
                        + "' has surrounding whitespace, which decoding would trim");
            }
            escape(text, where, false);
        }

        /** An attribute; tab and line feed as character references, which attribute value normalisation keeps. */
        private void attribute(String attribute, String value) {
            xml.append(' ').append(attribute).append("=\"");
            escape(value, attribute, true);
            xml.append('"');
        }

        private void escape(String text, String where, boolean inAttribute) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                switch (c) {
                    case '&' -> xml.append("&amp;");
                    case '<' -> xml.append("&lt;");
                    case '>' -> xml.append("&gt;");
                    case '"' -> xml.append("&quot;");
                    case '\r' -> xml.append("&#13;");
                    case '\n' -> xml.append(inAttribute ? "&#10;" : "\n");
                    case '\t' -> xml.append(inAttribute ? "&#9;" : "\t");
                    default -> {
                        if (Character.isHighSurrogate(c) && i + 1 < text.length()
                                && Character.isLowSurrogate(text.charAt(i + 1))) {
                            xml.append(c).append(text.charAt(++i));
                        } else if (c == '\t' || c == '\n' || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD) {
                            xml.append(c);
                        } else {
                            throw new IllegalArgumentException(where + " contains U+"
                                    + String.format("%04X", (int) c) + ", which XML 1.0 cannot carry");
                        }
                    }
                }
            }
        }

        @Override
        public String toString() {
            return xml.toString();
        }
    }
}
