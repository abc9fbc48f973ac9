package io.msgx.pipeline.published;

import io.msgx.pipeline.codec.MessageMeta;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * What caused a change of a flight, as it is published (docs/consumers.md): a message from the AODB, or the
 * retention of msgexchange's own history cleanup. Consumers tell an AODB deletion from a retention deletion by it.
 *
 * @param origin     who decided the change
 * @param msgId      the mailbox message ({@code CMINMSGS_ID}); 0 for a retention change
 * @param type       the message's {@code TYPE}; {@code LIFECYCLE} for a retention change
 * @param styp       the message's {@code STYP}; {@code CLEANUP} for a retention change
 * @param aodbSentAt the message's own send time ({@code DTTM}, airport local time); null for a retention change
 */
public record ChangeCause(Origin origin, long msgId, String type, String styp, LocalDateTime aodbSentAt) {

    /** Who decided a change; published as {@code cause}. */
    public enum Origin {
        /** A message of the AODB (or a replay of one). */
        AODB,
        /** msgexchange's history cleanup removed the flight after its retention (docs/lifecycle.md). */
        RETENTION
    }

    /** The cause of every change the history cleanup makes. */
    public static final ChangeCause RETENTION = new ChangeCause(Origin.RETENTION, 0, "LIFECYCLE", "CLEANUP", null);

    public ChangeCause {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(styp, "styp");
    }

    /** The cause of the changes message {@code msgId} makes. */
    public static ChangeCause message(long msgId, MessageMeta meta) {
        return new ChangeCause(Origin.AODB, msgId, meta.type(), meta.subtype(), meta.sentAt());
    }
}
