package io.msgx.tools.simulator;

import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Writes a draft as the AODB side sends it: sender {@code AODB}, its {@code SEQN}, {@code DTTM} the send time.
 * Flight and reference messages go through the project's codec, so they are exactly the SIS shape.
 */
final class AodbMessageWriter {

    static final String SENDER = "AODB";
    private static final DateTimeFormatter DTTM = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private final JacksonXmlCodec codec = new JacksonXmlCodec();

    String write(MessageDraft draft, long sequence, LocalDateTime sentAt) {
        return draft.match(new MessageDraft.Cases<>() {
            @Override
            public String flight(MessageDraft.Flight flight) {
                return codec.encode(MessageMeta.of(SENDER, flight.type(), flight.subtype(), Long.toString(sequence),
                        sentAt), flight.message());
            }

            @Override
            public String reference(MessageDraft.Reference reference) {
                var answer = reference.answer();
                return codec.encode(MessageMeta.of(SENDER, answer.referenceType(), answer.action().name(),
                        Long.toString(sequence), sentAt), answer);
            }

            @Override
            public String otherType(MessageDraft.OtherType other) {
                return "<MSG>" + meta(other.type(), other.subtype(), sequence, sentAt) + other.body() + "</MSG>";
            }

            @Override
            public String broken(MessageDraft.Broken broken) {
                return asBroken(write(broken.intact(), sequence, sentAt), broken);
            }
        });
    }

    /** The text of a draft written intact ({@code xml}), broken as {@code broken} says. */
    private static String asBroken(String xml, MessageDraft.Broken broken) {
        return switch (broken.breakage()) {
            case TRUNCATED -> xml.substring(0, (int) (xml.length() * broken.where()));
            case MISMATCHED_END_TAG -> {
                int end = xml.lastIndexOf("</", xml.length() - "</MSG>".length() - 1);
                int close = xml.indexOf('>', end);
                yield xml.substring(0, end) + xml.substring(end, close).toLowerCase(Locale.ROOT) + xml.substring(close);
            }
            case BARE_AMPERSAND -> xml.replace("&amp;", "&");
            case NO_META -> xml.substring(0, xml.indexOf("<META>")) + xml.substring(xml.indexOf("</META>") + "</META>".length());
        };
    }

    private static String meta(String type, String subtype, long sequence, LocalDateTime sentAt) {
        return "<META><SNDR>" + SENDER + "</SNDR><SEQN>" + sequence + "</SEQN><DTTM>" + DTTM.format(sentAt)
                + "</DTTM><TYPE>" + type + "</TYPE><STYP>" + subtype + "</STYP></META>";
    }
}
