package io.msgx.pipeline.codec;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

/**
 * The {@code <META>} envelope of a SIS message.
 *
 * <p>The constructor normalises what the wire cannot tell apart, so that a decoded meta equals the meta it
 * was encoded from: texts are trimmed, {@code type} and {@code subtype} upper-cased, a blank receiver or
 * request sequence becomes null, and {@code sentAt} is cut to whole seconds (DTTM has no finer precision).
 *
 * @param sender          {@code SNDR}
 * @param receiver        {@code RCVR}, null when absent
 * @param type            {@code TYPE}, upper case
 * @param subtype         {@code STYP}, upper case
 * @param sequence        {@code SEQN} as text
 * @param sentAt          {@code DTTM} (or its alias {@code DDTM}), airport local time
 * @param requestSequence {@code RQSN}: the {@code SEQN} of our request this message answers; null when absent
 */
public record MessageMeta(String sender, String receiver, String type, String subtype, String sequence,
                          LocalDateTime sentAt, String requestSequence) {

    public MessageMeta {
        sender = required("SNDR", sender);
        receiver = optional(receiver);
        type = required("TYPE", type).toUpperCase(Locale.ROOT);
        subtype = required("STYP", subtype).toUpperCase(Locale.ROOT);
        sequence = required("SEQN", sequence);
        sentAt = Objects.requireNonNull(sentAt, "DTTM").truncatedTo(ChronoUnit.SECONDS);
        requestSequence = optional(requestSequence);
    }

    /** A meta without receiver and request sequence. */
    public static MessageMeta of(String sender, String type, String subtype, String sequence, LocalDateTime sentAt) {
        return new MessageMeta(sender, null, type, subtype, sequence, sentAt, null);
    }

    private static String required(String element, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("META " + element + " must not be blank");
        }
        return text.trim();
    }

    private static String optional(String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    /** The message's kind as operators and meters name it: {@code TYPE-STYP} ({@code FLOP-GTDT}). */
    public String kind() {
        return kind(type, subtype);
    }

    /** {@code TYPE-STYP}, the one spelling of a kind. */
    public static String kind(String type, String subtype) {
        return type + "-" + subtype;
    }
}
