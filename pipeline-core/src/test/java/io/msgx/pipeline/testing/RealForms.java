package io.msgx.pipeline.testing;

import io.msgx.domain.flight.SisTime;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

/**
 * The real-form messages of {@code src/test/resources/real-forms} (one of every kind of sis-format.md version 2, see
 * its README), and what a pipeline that loses nothing must hold after it took them all, in file order: every value
 * each message carries, by the flight or reference record it belongs to. Reads the XML on its own (the JDK's DOM
 * parser), not through the codec under test.
 */
public final class RealForms {

    /** The reference types of sis-format §6 the corpus writes into {@code REF_MASTER}. */
    private static final Set<String> FLIGHT_TYPES = Set.of("SCHD", "FLOP", "FDEL");
    private static final Pattern EXPECT = Pattern.compile("<!-- expect: (\\w+) -->");
    private static final Pattern UNMAPPED = Pattern.compile("<!-- unmapped: (.+?) -->");
    private static final Pattern STATUS = Pattern.compile("<!-- status: (\\w+) -->");
    private static final Pattern OUTCOME = Pattern.compile("<!-- outcome names: (.+?) -->");
    /** The upstream sequence attributes of list items: they become {@code SOURCE_SEQ}, a number, not a text value. */
    private static final Pattern SEQUENCE_ATTRIBUTE = Pattern.compile("[A-Z]{2}NO|PSHN");

    /**
     * One message of the corpus: its file name, its text, the terminal state it must reach, the paths the codec
     * must report as unmapped (a comment {@code <!-- unmapped: PATH PATH -->}; none for most), and the mailbox status
     * its row carries (a comment {@code <!-- status: INVALID -->}; null, the AODB's default, for most), and what its
     * recorded outcome must name (a comment {@code <!-- outcome names: 2099 -->}: a flight passed over; none for most).
     */
    public record Message(String file, String xml, String expectedState, List<String> expectedUnmapped, String status,
                          List<String> outcomeNames) {

        public String type() {
            return metaText(this, "TYPE");
        }

        public String subtype() {
            return metaText(this, "STYP");
        }

        public String kind() {
            return type() + "-" + subtype();
        }
    }

    private final List<Message> messages;

    private RealForms(List<Message> messages) {
        this.messages = List.copyOf(messages);
    }

    /** The corpus, in file-name order. */
    public static RealForms load() {
        var names = new ArrayList<String>();
        try (InputStream list = resource("real-forms/index.txt")) {
            for (var line : new String(list.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    names.add(line.strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var messages = new ArrayList<Message>();
        for (var name : names) {
            try (InputStream in = resource("real-forms/" + name)) {
                var xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                var expect = EXPECT.matcher(xml);
                if (!expect.find()) {
                    throw new IllegalStateException(name + " has no '<!-- expect: STATE -->' comment");
                }
                var unmapped = UNMAPPED.matcher(xml);
                var status = STATUS.matcher(xml);
                var outcome = OUTCOME.matcher(xml);
                messages.add(new Message(name, xml, expect.group(1),
                        unmapped.find() ? List.of(unmapped.group(1).split(" ")) : List.of(),
                        status.find() ? status.group(1) : null,
                        outcome.find() ? List.of(outcome.group(1).split(" ")) : List.of()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new RealForms(messages);
    }

    public List<Message> messages() {
        return messages;
    }

    /**
     * Every text and attribute value the applied flight messages carry, by FLID: the values a flight's state (and its
     * {@code schd} JSON) must hold at the end. Messages expected to be skipped, deletions, and flights a later
     * message deletes are left out; {@code FLID} itself and the list items' sequence attributes are not text values.
     */
    public Map<String, Set<String>> flightValues() {
        var values = new LinkedHashMap<String, Set<String>>();
        var created = createdFlights();
        for (var message : messages) {
            if (!FLIGHT_TYPES.contains(message.type()) || !message.expectedState().equals("SUCCEEDED")
                    || isDeletion(message)) {
                continue;
            }
            for (var record : records(message)) {
                var flid = childText(record, "FLID");
                if (!created.contains(flid)) {
                    continue; // an operation on a flight that never existed changes nothing (sis-format v3 §10)
                }
                var into = values.computeIfAbsent(flid, f -> new LinkedHashSet<>());
                for (var child : children(record, null)) {
                    if (!child.getTagName().equals("FLID")) {
                        collect(child, into);
                    }
                }
            }
        }
        values.keySet().removeAll(deletedFlights());
        return values;
    }

    /** The FLIDs the corpus deletes (by deletions expected to succeed) among those it created. */
    public Set<String> deletedFlights() {
        var deleted = new LinkedHashSet<String>();
        var created = createdFlights();
        for (var message : messages) {
            if (isDeletion(message) && message.expectedState().equals("SUCCEEDED")) {
                records(message).stream().map(record -> childText(record, "FLID")).filter(created::contains)
                        .forEach(deleted::add);
            }
        }
        return deleted;
    }

    /** The FLIDs the corpus's schedules create: only these can be changed or deleted. */
    private Set<String> createdFlights() {
        var created = new LinkedHashSet<String>();
        for (var message : messages) {
            if (message.type().equals("SCHD") && !isDeletion(message) && message.expectedState().equals("SUCCEEDED")) {
                records(message).forEach(record -> created.add(childText(record, "FLID")));
            }
        }
        return created;
    }

    /** The flight records a message carries: a package's {@code FLTR}s, or its {@code FLOP} (or {@code FDEL}) bodies. */
    private static List<Element> records(Message message) {
        if (message.type().equals("SCHD")) {
            return children(body(message), "FLTR");
        }
        var bodies = children(root(message), message.type());
        return bodies.isEmpty() ? List.of(body(message)) : bodies;
    }

    /** {@code FDEL} of any subtype, {@code FLOP/FDEL}, or {@code SCHD/DEL}. */
    private static boolean isDeletion(Message message) {
        return message.type().equals("FDEL") || message.subtype().equals("FDEL") && message.type().equals("FLOP")
                || message.type().equals("SCHD") && message.subtype().equals("DEL");
    }

    /**
     * Every text and attribute value of every reference record that stands at the end, by {@code RTYPE:RKEY}:
     * records are written whole by {@code ADD}, {@code UPD}, {@code DNLD} and {@code RESP} and removed by
     * {@code DEL}, in file order. Skipped messages (an ignored type) write nothing.
     */
    public Map<String, Set<String>> referenceValues() {
        var values = new LinkedHashMap<String, Set<String>>();
        forEachReferenceRecord((key, record, removes) -> {
            if (removes) {
                values.remove(key);
            } else {
                var into = new LinkedHashSet<String>();
                children(record, null).forEach(child -> collect(child, into));
                values.put(key, into);
            }
        });
        return values;
    }

    /** The {@code RTYPE:RKEY} of every record the corpus deletes and does not write again. */
    public Set<String> deletedReferences() {
        var deleted = new LinkedHashSet<String>();
        forEachReferenceRecord((key, record, removes) -> {
            if (removes) {
                deleted.add(key);
            } else {
                deleted.remove(key);
            }
        });
        return deleted;
    }

    private interface ReferenceRecordVisitor {
        void visit(String key, Element record, boolean removes);
    }

    /** Every record of the reference messages expected to succeed, in file order, with whether its message removes. */
    private void forEachReferenceRecord(ReferenceRecordVisitor visitor) {
        for (var message : messages) {
            if (FLIGHT_TYPES.contains(message.type()) || !message.expectedState().equals("SUCCEEDED")) {
                continue;
            }
            for (var record : children(root(message), message.type())) {
                var key = message.type() + ":" + children(record, null).get(0).getTextContent().strip();
                visitor.visit(key, record, message.subtype().equals("DEL"));
            }
        }
    }

    /**
     * The values of {@code expected} that {@code json} does not hold as a JSON string ({@code "value"}); empty when
     * nothing was lost on the way.
     */
    public static List<String> missingFrom(String json, Set<String> expected) {
        return expected.stream().filter(value -> json == null || !carries(json, value)).toList();
    }

    /**
     * Whether a published or stored value {@code json} carries {@code value} as sent: as a string, or typed as
     * docs/consumers.md says: a SIS time as an RFC 3339 time of the same local date and time (whatever the offset), a
     * number as a JSON number of the same value.
     */
    private static boolean carries(String json, String value) {
        if (json.contains('"' + jsonEscaped(value) + '"')) {
            return true;
        }
        var time = SisTime.parse(value);
        if (time.isPresent() && json.contains('"' + time.get().format(DateTimeFormatter.ISO_LOCAL_DATE) + "T"
                + time.get().toLocalTime().format(DateTimeFormatter.ofPattern("HH:mm:ss")))) {
            return true;
        }
        if (value.matches("[+-]?[0-9]+(\\.[0-9]+)?")) {
            var number = new java.math.BigDecimal(value).toPlainString();
            return Pattern.compile("[:\\[,]" + Pattern.quote(number) + "[,}\\]]").matcher(json).find();
        }
        return false;
    }

    private static String jsonEscaped(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static void collect(Element element, Set<String> into) {
        if (element.getTagName().equals("POID")) {
            return; // O or C says which of the door's times POTM is: the field's name, not a value (v3 §10)
        }
        var attributes = element.getAttributes();
        for (int i = 0; i < attributes.getLength(); i++) {
            var attribute = attributes.item(i);
            if (!SEQUENCE_ATTRIBUTE.matcher(attribute.getNodeName()).matches() && !attribute.getNodeValue().isBlank()) {
                into.add(attribute.getNodeValue().strip());
            }
        }
        var children = children(element, null);
        var ownText = new StringBuilder();
        for (var node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node.getNodeType() == Node.TEXT_NODE || node.getNodeType() == Node.CDATA_SECTION_NODE) {
                ownText.append(node.getNodeValue());
            }
        }
        if (!ownText.toString().isBlank()) {
            into.add(ownText.toString().strip());
        }
        children.forEach(child -> collect(child, into));
    }

    private static Element root(Message message) {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder()
                    .parse(new ByteArrayInputStream(message.xml().getBytes(StandardCharsets.UTF_8)))
                    .getDocumentElement();
        } catch (Exception e) {
            throw new IllegalStateException(message.file() + " is not well-formed: " + e.getMessage(), e);
        }
    }

    private static Element body(Message message) {
        var root = root(message);
        var body = children(root, message.type());
        if (body.isEmpty() && message.type().equals("FDEL")) {
            body = children(root, "FLOP");
        }
        return body.get(0);
    }

    private static String metaText(Message message, String name) {
        return childText(children(root(message), "META").get(0), name);
    }

    private static String childText(Element parent, String name) {
        return children(parent, name).get(0).getTextContent().strip();
    }

    /** The child elements of {@code parent}, those named {@code name} only unless it is null. */
    private static List<Element> children(Element parent, String name) {
        var found = new ArrayList<Element>();
        for (var node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && (name == null || element.getTagName().equals(name))) {
                found.add(element);
            }
        }
        return found;
    }

    private static InputStream resource(String name) {
        var in = RealForms.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("no test resource " + name + " on the class path");
        }
        return in;
    }
}
