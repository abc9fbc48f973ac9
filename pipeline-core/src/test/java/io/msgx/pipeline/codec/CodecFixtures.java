package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightMessage;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Shared helpers of the codec tests. */
final class CodecFixtures {

    static final XmlCodec CODEC = new JacksonXmlCodec();

    private CodecFixtures() {
    }

    static DecodedMessage decoded(String xml) {
        DecodeResult result = CODEC.decode(xml);
        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        return ((DecodeResult.Decoded) result).message();
    }

    /** The paths of what the message carried that nothing maps. */
    static java.util.List<String> unmapped(String xml) {
        DecodeResult result = CODEC.decode(xml);
        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        return ((DecodeResult.Decoded) result).unmapped();
    }

    static FlightMessage flight(String xml) {
        DecodedMessage message = decoded(xml);
        assertThat(message.flightMessage()).isPresent();
        assertThat(message.referenceAnswer()).isEmpty();
        return message.flightMessage().orElseThrow();
    }

    static String malformed(String xml) {
        DecodeResult result = CODEC.decode(xml);
        assertThat(result).isInstanceOf(DecodeResult.Malformed.class);
        return ((DecodeResult.Malformed) result).reason();
    }

    /** Encodes what was decoded and decodes it again: the result must be equal. */
    static void assertRoundTrip(DecodedMessage message) {
        String xml = message.referenceAnswer().isPresent()
                ? CODEC.encode(message.meta(), message.referenceAnswer().get())
                : CODEC.encode(message.meta(), message.flightMessage().orElseThrow());
        assertThat(decoded(xml)).isEqualTo(withoutExtensions(message));
    }

    /**
     * {@code message} without the extension documents its records carried: the writer writes what the model knows, and
     * what it does not know stays in the raw message (D-120).
     */
    static DecodedMessage withoutExtensions(DecodedMessage message) {
        return message.flightMessage().map(flight -> DecodedMessage.ofFlight(message.meta(), withoutExtensions(flight)))
                .orElse(message);
    }

    private static io.msgx.domain.message.FlightMessage withoutExtensions(io.msgx.domain.message.FlightMessage message) {
        if (message instanceof io.msgx.domain.message.ScheduleMessage schedule) {
            return new io.msgx.domain.message.ScheduleMessage(schedule.kind(), schedule.declaredCount(),
                    schedule.records().stream().map(r -> new io.msgx.domain.message.FlightRecord(r.flid(),
                            withoutExtensions(r.patch()))).toList());
        }
        if (message instanceof io.msgx.domain.message.FlightOperation op) {
            return new io.msgx.domain.message.FlightOperation(op.subtype(), op.flid(), withoutExtensions(op.patch()));
        }
        if (message instanceof io.msgx.domain.message.FlightBatch batch) {
            return new io.msgx.domain.message.FlightBatch(batch.parts().stream().map(CodecFixtures::withoutExtensions)
                    .toList(), batch.declaredCount());
        }
        return message;
    }

    private static io.msgx.domain.message.FlightPatch withoutExtensions(io.msgx.domain.message.FlightPatch patch) {
        var lists = new java.util.EnumMap<FlightList, java.util.List<io.msgx.domain.flight.ListItem>>(FlightList.class);
        lists.putAll(patch.lists());
        lists.remove(FlightList.EXTENSIONS);
        return new io.msgx.domain.message.FlightPatch(patch.fields(), lists);
    }

    static String meta(String type, String styp) {
        return "<META><SNDR>AODB</SNDR><RCVR>RMS</RCVR><SEQN>345935</SEQN><DTTM>20260311223126</DTTM>"
                + "<TYPE>" + type + "</TYPE><STYP>" + styp + "</STYP></META>";
    }

    static LocalDateTime sentAt() {
        return LocalDateTime.of(2026, 3, 11, 22, 31, 26);
    }

    static FieldChange set(String value) {
        return new FieldChange.SetTo(value);
    }

    static ListItem item(Integer seq, String... codesAndValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            values.put(codesAndValues[i], codesAndValues[i + 1]);
        }
        return new ListItem(seq, values);
    }

    /** A map in the given order, e.g. a reference record's fields. */
    static Map<String, String> ordered(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static Map<FlightField, FieldChange> fields(Object... fieldsAndChanges) {
        Map<FlightField, FieldChange> fields = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndChanges.length; i += 2) {
            Object change = fieldsAndChanges[i + 1];
            fields.put((FlightField) fieldsAndChanges[i], change instanceof String s ? set(s) : (FieldChange) change);
        }
        return fields;
    }

    static FlightList list(String code) {
        return FlightList.byCode(code).orElseThrow();
    }
}
