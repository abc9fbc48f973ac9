package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Maps a parsed {@code MSG} tree to a {@link DecodedMessage}, by the rules of {@link XmlCodec}, with the paths of what a
 * flight message carried that nothing maps.
 */
final class SisMessageReader implements Function<XmlElement, DecodeResult.Decoded> {

    /** The children of {@code META} the envelope reads. */
    private static final Set<String> META_ELEMENTS = Set.of("SNDR", "RCVR", "SEQN", "DTTM", "DDTM", "TYPE", "STYP", "RQSN");

    static final DateTimeFormatter DTTM = DateTimeFormatter.ofPattern("uuuuMMddHHmmss")
            .withResolverStyle(ResolverStyle.STRICT);

    private static final DateTimeFormatter DTTM_WRITTEN_OUT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss")
            .withResolverStyle(ResolverStyle.STRICT);

    private final Set<String> referenceTypes;

    SisMessageReader(Set<String> referenceTypes) {
        this.referenceTypes = Set.copyOf(referenceTypes);
    }

    @Override
    public DecodeResult.Decoded apply(XmlElement root) {
        if (!root.name().equals("MSG")) {
            throw new MalformedMessage("root element is <" + root.name() + ">, not <MSG>");
        }
        MessageMeta meta = meta(root);
        MsgKind kind = MsgKind.of(meta.type(), meta.subtype(), referenceTypes);
        var unmapped = new UnmappedPaths();
        return kind.match(new MsgKind.Cases<>() {
            @Override
            public DecodeResult.Decoded schedule(MsgKind.Schd schd) {
                var message = DecodedMessage.ofFlight(meta,
                        SisMessageReader.schedule(root, schd.scheduleKind(), unmapped));
                return new DecodeResult.Decoded(message, envelope(root, "SCHD", unmapped), unmapped.notTimes());
            }

            @Override
            public DecodeResult.Decoded operation(MsgKind.Flop flop) {
                var message = DecodedMessage.ofFlight(meta, operations(root, flop, unmapped));
                return new DecodeResult.Decoded(message, envelope(root, "FLOP", unmapped), unmapped.notTimes());
            }

            @Override
            public DecodeResult.Decoded deletion(MsgKind.Fdel fdel) {
                if (meta.type().equals("SCHD")) {
                    var message = DecodedMessage.ofFlight(meta, scheduledDeletions(root, unmapped));
                    return new DecodeResult.Decoded(message, envelope(root, "SCHD", unmapped));
                }
                XmlElement body = deletionBody(root, meta.type());
                var message = DecodedMessage.ofFlight(meta, SisMessageReader.deletion(body, unmapped));
                return new DecodeResult.Decoded(message, envelope(root, body.name(), unmapped));
            }

            @Override
            public DecodeResult.Decoded reference(MsgKind.Ref ref) {
                var answer = ReferenceBodyReader.read(root, ref.referenceType(), ref.action());
                return new DecodeResult.Decoded(DecodedMessage.ofReference(meta, answer),
                        ReferenceBodyReader.unmapped(root, ref.referenceType()));
            }

            @Override
            public DecodeResult.Decoded seasonal(MsgKind.Seasonal seasonal) {
                return new DecodeResult.Decoded(DecodedMessage.seasonal(meta, seasonal));
            }

            @Override
            public DecodeResult.Decoded unsupported(MsgKind.Unsupported unsupported) {
                return new DecodeResult.Decoded(DecodedMessage.unsupported(meta, unsupported));
            }
        });
    }

    /**
     * The paths a flight message carried that nothing maps, in document order: attributes of {@code MSG} other than
     * {@code xmlns} and {@code xsi:} ones, children of {@code MSG} other than {@code META} and the body, children of
     * {@code META} the envelope does not read, anything inside {@code META}'s elements, and the body's ({@code body}).
     */
    private static List<String> envelope(XmlElement root, String bodyName, UnmappedPaths body) {
        var unmapped = new UnmappedPaths();
        root.attributes().keySet().stream()
                .filter(name -> !name.startsWith("xmlns") && !name.startsWith("xsi:"))
                .forEach(name -> unmapped.attribute("MSG", name));
        unmapped.text("MSG", root);
        boolean bodySeen = false;
        for (XmlElement child : root.children()) {
            if (child.name().equals("META")) {
                child.attributes().keySet().forEach(name -> unmapped.attribute("META", name));
                unmapped.text("META", child);
                for (XmlElement field : child.children()) {
                    if (META_ELEMENTS.contains(field.name())) {
                        unmapped.attributesAndChildren("META/" + field.name(), field);
                    } else {
                        unmapped.element("META", field);
                    }
                }
            } else if (child.name().equals(bodyName)) {
                if (!bodySeen) {
                    unmapped.addAll(body); // every body's paths were collected by its reader, in document order
                }
                bodySeen = true;
            } else {
                unmapped.element("MSG", child);
            }
        }
        return unmapped.toList();
    }

    private static MessageMeta meta(XmlElement root) {
        XmlElement meta = root.only("META", "MSG").orElseThrow(() -> new MalformedMessage("MSG has no META"));
        XmlElement sentAt = meta.only("DTTM", "META")
                .or(() -> meta.only("DDTM", "META"))
                .orElseThrow(() -> new MalformedMessage("META has no DTTM (nor its alias DDTM)"));
        return new MessageMeta(
                required(meta, "SNDR"),
                meta.only("RCVR", "META").map(XmlElement::trimmedText).orElse(null),
                required(meta, "TYPE"),
                required(meta, "STYP"),
                required(meta, "SEQN"),
                sendTime(sentAt),
                meta.only("RQSN", "META").map(XmlElement::trimmedText).orElse(null));
    }

    private static String required(XmlElement meta, String name) {
        String text = meta.only(name, "META")
                .orElseThrow(() -> new MalformedMessage("META has no " + name))
                .trimmedText();
        if (text.isEmpty()) {
            throw new MalformedMessage("META " + name + " is empty");
        }
        return text;
    }

    /** {@code yyyyMMddHHmmss}, or {@code yyyy-MM-dd HH:mm:ss} as other senders of the family write it (v3 §10). */
    private static LocalDateTime sendTime(XmlElement element) {
        String text = element.trimmedText();
        try {
            if (text.length() == 14 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return LocalDateTime.parse(text, DTTM);
            }
            if (text.length() == 19) {
                return LocalDateTime.parse(text, DTTM_WRITTEN_OUT);
            }
        } catch (DateTimeException e) {
            // falls through to the reason below
        }
        throw new MalformedMessage(element.name() + " '" + text + "' is neither yyyyMMddHHmmss nor yyyy-MM-dd HH:mm:ss");
    }

    /**
     * The {@code FLOP} bodies in document order: one is an operation, several a {@link FlightBatch} of operations of the
     * message's one subtype (sis-format v3 §10), each body named by its position in reasons ({@code FLOP #2}).
     */
    private static FlightMessage operations(XmlElement root, MsgKind.Flop flop, UnmappedPaths unmapped) {
        var bodies = root.children("FLOP");
        if (bodies.isEmpty()) {
            throw payloadMissing("FLOP");
        }
        var operations = new ArrayList<FlightMessage>(bodies.size());
        for (int i = 0; i < bodies.size(); i++) {
            String where = bodies.size() == 1 ? "FLOP" : "FLOP #" + (i + 1);
            FlightRecord record = FlightRecordReader.read(bodies.get(i), where, unmapped);
            operations.add(new FlightOperation(flop.subtype(), record.flid(), record.patch()));
        }
        return operations.size() == 1 ? operations.get(0) : new FlightBatch(operations);
    }

    /**
     * {@code SCHD/DEL}: the package's records name the flights to delete ({@code FLID}); {@code RECS}, when present,
     * must equal the number of records, as in every package (the engine's rule). What else a record carries is not read
     * (a deletion needs the flight's identity only) and is named as unmapped, so that nothing vanishes in silence.
     */
    private static FlightBatch scheduledDeletions(XmlElement root, UnmappedPaths unmapped) {
        var listed = records(root, unmapped,
                (record, position) -> (FlightMessage) deletion(record, "SCHD/FLTR", unmapped));
        if (listed.records().isEmpty()) {
            throw new MalformedMessage("SCHD/DEL lists no FLTR: nothing to delete");
        }
        return new FlightBatch(listed.records(), listed.declaredCount());
    }

    /** A package's declared count ({@code RECS}, null when absent) and its records, read in document order. */
    private record Package<T>(Integer declaredCount, List<T> records) {
    }

    /**
     * The {@code SCHD} body's {@code RECS} and its {@code FLTR} records, each read by {@code reader} with its position
     * (from 1); whatever else the body carries is named as unmapped.
     */
    private static <T> Package<T> records(XmlElement root, UnmappedPaths unmapped,
                                          java.util.function.BiFunction<XmlElement, Integer, T> reader) {
        XmlElement body = body(root, "SCHD");
        body.attributes().keySet().forEach(name -> unmapped.attribute("SCHD", name));
        unmapped.text("SCHD", body);
        Integer declaredCount = body.only("RECS", "SCHD").map(SisMessageReader::declaredCount).orElse(null);
        var records = new ArrayList<T>();
        for (XmlElement child : body.children()) {
            switch (child.name()) {
                case "RECS" -> unmapped.attributesAndChildren("SCHD/RECS", child);
                case "FLTR" -> records.add(reader.apply(child, records.size() + 1));
                default -> unmapped.element("SCHD", child);
            }
        }
        return new Package<>(declaredCount, records);
    }

    private static XmlElement body(XmlElement root, String name) {
        return root.only(name, "MSG").orElseThrow(() -> payloadMissing(name));
    }

    static MalformedMessage payloadMissing(String name) {
        return new MalformedMessage("MSG has no " + name + " body: payload missing");
    }

    private static ScheduleMessage schedule(XmlElement root, ScheduleKind kind, UnmappedPaths unmapped) {
        var schedule = records(root, unmapped,
                (record, position) -> FlightRecordReader.read(record, "FLTR #" + position, unmapped));
        return new ScheduleMessage(kind, schedule.declaredCount(), schedule.records());
    }

    static Integer declaredCount(XmlElement recs) {
        try {
            return Integer.valueOf(recs.trimmedText());
        } catch (NumberFormatException e) {
            throw new MalformedMessage("RECS '" + recs.trimmedText() + "' is not an integer");
        }
    }

    private static XmlElement deletionBody(XmlElement root, String type) {
        String other = type.equals("FDEL") ? "FLOP" : "FDEL";
        return root.only(type, "MSG")
                .or(() -> root.only(other, "MSG"))
                .orElseThrow(() -> new MalformedMessage("MSG has no " + type + " (or " + other + ") body: payload missing"));
    }

    /** {@code FLID} is read; {@code FFID} and an {@code <FDEL/>} marker are known; anything else is unmapped. */
    private static FlightDeletion deletion(XmlElement body, UnmappedPaths unmapped) {
        return deletion(body, body.name(), unmapped);
    }

    private static FlightDeletion deletion(XmlElement body, String path, UnmappedPaths unmapped) {
        body.attributes().keySet().forEach(name -> unmapped.attribute(path, name));
        unmapped.text(path, body);
        for (XmlElement child : body.children()) {
            switch (child.name()) {
                case "FLID", "FFID", "FDEL" -> unmapped.attributesAndChildren(path + '/' + child.name(), child);
                default -> unmapped.element(path, child);
            }
        }
        return new FlightDeletion(body.only("FLID", body.name()).map(XmlElement::trimmedText).orElse(null));
    }
}
