package io.msgx.pipeline.record;

import java.time.Instant;
import java.time.LocalDate;

/**
 * One {@code REQ_TRACK} row: a request we sent (or are about to send) to the AODB side and its answer.
 *
 * @param id            the row's ID
 * @param kind          schedule ({@code RQFD}) or reference ({@code RQRD}) request
 * @param subject       the reference type for a reference request; null for a schedule request
 * @param coverDay      the operation day covered; never null for a schedule request, may be null for a reference one
 * @param sender        our {@code SNDR}
 * @param status        where it is in the state machine
 * @param seqn          our outbound {@code SEQN}, unique: the token an answer echoes in {@code RQSN}
 * @param outMsgId      the confirmed {@code COUTMSGS} ID; null until {@link RequestStatus#SENT}
 * @param windowStart   the schedule window start ({@code STDB}), may be null
 * @param windowEnd     the schedule window end ({@code STDE}), may be null
 * @param createdAt     when it was registered
 * @param sentAt        when the outbound write was confirmed; null until sent
 * @param closedAt      when it became DONE or EXPIRED ({@code DONE_AT}); null while open
 * @param responseMsgId the inbound message that answered it; null unless DONE
 * @param matchMode     how that answer was matched; null unless DONE
 */
public record Request(long id, RequestKind kind, String subject, LocalDate coverDay, String sender,
                      RequestStatus status, String seqn, Long outMsgId, Instant windowStart, Instant windowEnd,
                      Instant createdAt, Instant sentAt, Instant closedAt, Long responseMsgId, MatchMode matchMode) {

    /** The request type of the "one open request" key ({@code REQ_TRACK.REQ_TYPE}). */
    public String typeKey() {
        return kind.typeKey(subject);
    }
}
