package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightDeletion;
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

/** Maps a parsed {@code MSG} tree to a {@link DecodedMessage}, by the rules of {@link XmlCodec}. */
final class SisMessageReader implements Function<XmlElement, DecodedMessage> {

    static final DateTimeFormatter DTTM = DateTimeFormatter.ofPattern("uuuuMMddHHmmss")
            .withResolverStyle(ResolverStyle.STRICT);

    private final Set<String> referenceTypes;

    SisMessageReader(Set<String> referenceTypes) {
        this.referenceTypes = Set.copyOf(referenceTypes);
    }

    @Override
    public DecodedMessage apply(XmlElement root) {
        if (!root.name().equals("MSG")) {
            throw new MalformedMessage("root element is <" + root.name() + ">, not <MSG>");
        }
        MessageMeta meta = meta(root);
        MsgKind kind = MsgKind.of(meta.type(), meta.subtype(), referenceTypes);
        if (kind instanceof MsgKind.Schd schd) {
            return DecodedMessage.ofFlight(meta, schedule(root, schd.scheduleKind()));
        }
        if (kind instanceof MsgKind.Flop flop) {
            FlightRecord record = FlightRecordReader.read(body(root, "FLOP"), "FLOP");
            return DecodedMessage.ofFlight(meta, new FlightOperation(flop.subtype(), record.flid(), record.patch()));
        }
        if (kind instanceof MsgKind.Fdel) {
            return DecodedMessage.ofFlight(meta, deletion(root, meta.type()));
        }
        if (kind instanceof MsgKind.Ref ref) {
            return DecodedMessage.ofReference(meta, ReferenceBodyReader.read(root, ref.referenceType(), ref.action()));
        }
        return DecodedMessage.unsupported(meta, (MsgKind.Unsupported) kind);
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

    private static LocalDateTime sendTime(XmlElement element) {
        String text = element.trimmedText();
        try {
            if (text.length() == 14 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return LocalDateTime.parse(text, DTTM);
            }
        } catch (DateTimeException e) {
            // falls through to the reason below
        }
        throw new MalformedMessage(element.name() + " '" + text + "' is not yyyyMMddHHmmss");
    }

    private static XmlElement body(XmlElement root, String name) {
        return root.only(name, "MSG").orElseThrow(() -> payloadMissing(name));
    }

    static MalformedMessage payloadMissing(String name) {
        return new MalformedMessage("MSG has no " + name + " body: payload missing");
    }

    private static ScheduleMessage schedule(XmlElement root, ScheduleKind kind) {
        XmlElement body = body(root, "SCHD");
        Integer declaredCount = body.only("RECS", "SCHD").map(SisMessageReader::declaredCount).orElse(null);
        List<XmlElement> elements = body.children("FLTR");
        var records = new ArrayList<FlightRecord>(elements.size());
        for (int i = 0; i < elements.size(); i++) {
            records.add(FlightRecordReader.read(elements.get(i), "FLTR #" + (i + 1)));
        }
        return new ScheduleMessage(kind, declaredCount, records);
    }

    static Integer declaredCount(XmlElement recs) {
        try {
            return Integer.valueOf(recs.trimmedText());
        } catch (NumberFormatException e) {
            throw new MalformedMessage("RECS '" + recs.trimmedText() + "' is not an integer");
        }
    }

    private static FlightDeletion deletion(XmlElement root, String type) {
        String other = type.equals("FDEL") ? "FLOP" : "FDEL";
        XmlElement body = root.only(type, "MSG")
                .or(() -> root.only(other, "MSG"))
                .orElseThrow(() -> new MalformedMessage("MSG has no " + type + " (or " + other + ") body: payload missing"));
        return new FlightDeletion(body.only("FLID", body.name()).map(XmlElement::trimmedText).orElse(null));
    }

    /** The paths of {@code message}'s tree the model does not know (see {@link DecodeResult.Decoded#unmapped}). */
    static List<String> unmapped(XmlElement root, DecodedMessage message) {
        return message.kind() instanceof MsgKind.Ref ref ? ReferenceBodyReader.unmapped(root, ref.referenceType()) : List.of();
    }
}
