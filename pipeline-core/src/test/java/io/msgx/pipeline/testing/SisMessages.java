package io.msgx.pipeline.testing;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes SIS XML for tests through the real codec, so a test says what a message means and gets the bytes
 * the AODB would send. Each message gets the next {@code SEQN} unless one is given.
 */
public final class SisMessages {

    private static final JacksonXmlCodec CODEC = new JacksonXmlCodec();
    private final AtomicLong seqn = new AtomicLong(1000);
    private final LocalDateTime sentAt = LocalDateTime.of(2024, 3, 11, 6, 0);

    public String schedule(FlightRecord... records) {
        return encode("SCHD", "DNLD", new ScheduleMessage(ScheduleKind.DNLD, records.length, List.of(records)));
    }

    public String adft(FlightRecord record) {
        return encode("SCHD", "ADFT", new ScheduleMessage(ScheduleKind.ADFT, 1, List.of(record)));
    }

    public String flop(FlopSubtype subtype, String flid, FlightPatch patch) {
        return encode("FLOP", subtype.name(), new FlightOperation(subtype, flid, patch));
    }

    /** One message carrying several {@code FLOP} bodies of one subtype (sis-format v3 §10): FLID, patch, FLID, patch... */
    public String flops(FlopSubtype subtype, Object... flidsAndPatches) {
        var parts = new java.util.ArrayList<io.msgx.domain.message.FlightMessage>();
        for (int i = 0; i < flidsAndPatches.length; i += 2) {
            parts.add(new FlightOperation(subtype, (String) flidsAndPatches[i], (FlightPatch) flidsAndPatches[i + 1]));
        }
        return encode("FLOP", subtype.name(), new io.msgx.domain.message.FlightBatch(parts));
    }

    /** A {@code SCHD/DEL} package listing {@code flids} (sis-format v3 §10). */
    public String scheduledDeletion(String... flids) {
        return encode("SCHD", "DEL", new io.msgx.domain.message.FlightBatch(java.util.Arrays.stream(flids)
                .<io.msgx.domain.message.FlightMessage>map(FlightDeletion::new).toList(), flids.length));
    }

    public String fdel(String flid) {
        return encode("FLOP", "FDEL", new FlightDeletion(flid));
    }

    /** A message of any type with an empty body element, e.g. an ignored {@code LDM}. */
    public String other(String type, String styp) {
        return "<MSG><META><SNDR>AODB</SNDR><SEQN>" + seqn.incrementAndGet() + "</SEQN><DTTM>20240311060000</DTTM>"
                + "<TYPE>" + type + "</TYPE><STYP>" + styp + "</STYP></META><" + type + "/></MSG>";
    }

    /** The same message again with the same identity (a business duplicate). */
    public String withSeqn(String xml, long newSeqn) {
        return xml.replaceFirst("<SEQN>\\d+</SEQN>", "<SEQN>" + newSeqn + "</SEQN>");
    }

    public static FlightRecord fltr(String flid, String sodt, String... codesAndValues) {
        return new FlightRecord(flid, patch(codesAndValues).with(FlightField.SODT, FieldChange.of(sodt)));
    }

    public static FlightRecord fltr(String flid, FlightPatch patch) {
        return new FlightRecord(flid, patch);
    }

    public static FlightPatch patch(String... codesAndValues) {
        var patch = FlightPatch.empty();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            patch = patch.with(FlightField.valueOf(codesAndValues[i]), FieldChange.of(codesAndValues[i + 1]));
        }
        return patch;
    }

    public static FlightPatch withList(FlightPatch patch, FlightList list, ListItem... items) {
        return patch.with(list, List.of(items));
    }

    public static ListItem item(Integer seq, String... codesAndValues) {
        var values = new LinkedHashMap<String, String>();
        for (int i = 0; i < codesAndValues.length; i += 2) {
            values.put(codesAndValues[i], codesAndValues[i + 1]);
        }
        return ListItem.of(seq, values);
    }

    private String encode(String type, String styp, FlightMessage message) {
        var meta = MessageMeta.of("AODB", type, styp, Long.toString(seqn.incrementAndGet()), sentAt);
        return CODEC.encode(meta, message);
    }
}
