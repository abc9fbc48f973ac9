package io.msgx.tools.simulator;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One message of a simulated day, in mailbox order.
 *
 * @param xml         the text the AODB side writes into {@code CMINMSGS}
 * @param kind        what the message is meant to be
 * @param flid        the flight it is about; null for a schedule package and for messages about no flight
 * @param description a line for people: what happens and why
 * @param writtenAt   when the AODB side writes it, airport local time (a duplicate is written later than the
 *                    {@code DTTM} it repeats)
 */
public record SimulatedMessage(String xml, Kind kind, String flid, String description, LocalDateTime writtenAt) {

    /** What a simulated message is meant to be, and so how the pipeline should end it. */
    public enum Kind {
        /** A {@code SCHD DNLD} package of the daily plan. */
        SCHEDULE,
        /** A {@code SCHD ADFT}: one flight added mid-day. */
        ADFT,
        /** A dynamic operation on one flight. */
        FLOP,
        /** A deletion ({@code FLOP FDEL}). */
        FDEL,
        /** Reference data ({@code GLST}, {@code SLST}, {@code AIRL}, ...): a table's download, or one change. */
        REFERENCE,
        /** An earlier message again, byte for byte: same {@code SEQN}, same business identity. */
        DUPLICATE,
        /** A type on the ignore list: {@code LDM}, {@code REGN}, {@code RSTA}, {@code EROR}. */
        IGNORED,
        /** Broken XML. */
        MALFORMED
    }

    public SimulatedMessage {
        Objects.requireNonNull(xml, "xml");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(writtenAt, "writtenAt");
    }
}
