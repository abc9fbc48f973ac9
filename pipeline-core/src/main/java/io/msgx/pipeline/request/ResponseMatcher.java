package io.msgx.pipeline.request;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.flight.SisTime;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.record.MatchMode;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.record.RequestKind;
import io.msgx.pipeline.record.RequestStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides which of our requests an answer belongs to (seeds §7.2, G-RESP-GUARD, C-23, Q5): a schedule request
 * for a {@code SCHD/RESP} ({@link #match}), a reference request for a {@code <TYPE>/RESP} ({@link #matchReference}).
 *
 * <ul>
 *   <li><b>Exact</b>: the answer echoes our request's {@code SEQN} in {@code RQSN}, and that request is
 *       {@code SENT}. Our numbers cycle (D-111): the {@code RQSN} names the open request carrying it, never an older
 *       closed one with the same number ({@link RequestTrack#findBySeqn}); an answer to that older one is sent before
 *       the open request was, and is refused as too early.</li>
 *   <li><b>Degraded</b> (no {@code RQSN}): the latest {@code SENT} schedule request whose window covers the
 *       schedule date ({@code SODT}) of every record of the answer: for a request of a whole operation day, the
 *       answer's records all belong to that day; a window open at one end ({@code STDB} or {@code STDE} only) bounds
 *       them on one side only. The match is logged as degraded and recorded as {@code MATCH_MODE=DEGRADED}: two
 *       requests whose windows overlap in flight at once could be confused, which we accept (there is never more than
 *       one open request per operation day and sender).</li>
 *   <li><b>A request still {@code PENDING}</b> (its confirmation was lost, and the confirmation round has not run
 *       yet): when the mailbox is given and the request's row is found in {@code COUTMSGS} by its {@code SEQN}, it is
 *       confirmed {@code SENT} in the answer's transaction and matched as if it had been.</li>
 *   <li><b>No match</b>: no such request, a request that is {@code EXPIRED} or {@code DONE} (a late answer never
 *       changes a closed request), a request never written, or an answer sent before our request
 *       ({@code DTTM} earlier than the request's send time by more than the clock-skew tolerance).</li>
 * </ul>
 * A reference answer is matched the same way, with its reference type in place of the operation day: exact by
 * {@code RQSN} (the request must be a reference request of the same type), degraded to the latest {@code SENT}
 * request of that type.
 *
 * <p>Times are compared as instants: {@code DTTM} is airport local time, converted with the airport zone; the
 * tolerance ({@code msgx.requests.clock-skew}) absorbs the difference between the AODB's clock and ours.
 */
public final class ResponseMatcher {

    private static final Logger log = LoggerFactory.getLogger(ResponseMatcher.class);

    private final OperationDayRule dayRule;
    private final Duration clockSkew;
    private final Mailbox mailbox;
    private final SeqnCycle seqns;

    public ResponseMatcher(OperationDayRule dayRule, Duration clockSkew) {
        this(dayRule, clockSkew, null);
    }

    /** {@code mailbox}: where a {@code PENDING} request is looked for before its answer is turned away; null: nowhere. */
    public ResponseMatcher(OperationDayRule dayRule, Duration clockSkew, Mailbox mailbox) {
        this(dayRule, clockSkew, mailbox, SeqnCycle.defaults());
    }

    /**
     * {@code seqns}: the cycle our {@code SEQN}s are written in, so that an {@code RQSN} echoed without its leading
     * zeros ({@code 42} for {@code 000042}) still names its request.
     */
    public ResponseMatcher(OperationDayRule dayRule, Duration clockSkew, Mailbox mailbox, SeqnCycle seqns) {
        this.dayRule = Objects.requireNonNull(dayRule, "dayRule");
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
        this.mailbox = mailbox;
        this.seqns = Objects.requireNonNull(seqns, "seqns");
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("msgx.requests.clock-skew must not be negative, got " + clockSkew);
        }
    }

    public ResponseMatch match(RequestTrack requests, MessageMeta meta, ScheduleMessage answer) {
        var answeredAt = meta.sentAt().atZone(dayRule.airportZone()).toInstant();
        if (meta.requestSequence() != null) {
            var request = bySeqn(requests, meta.requestSequence());
            if (request.isEmpty() || request.get().kind() != RequestKind.SCHEDULE) {
                return new ResponseMatch.Unmatched("no schedule request with SEQN " + meta.requestSequence());
            }
            return check(requests, request.get(), answeredAt, MatchMode.EXACT);
        }
        var scheduled = scheduledTimes(answer);
        if (scheduled.isEmpty()) {
            return new ResponseMatch.Unmatched("no RQSN, and no record carries a schedule date (SODT)");
        }
        var candidate = requests.openOf(RequestKind.SCHEDULE, null).stream()
                .filter(r -> scheduled.stream().allMatch(t -> covers(r, t)))
                .max(Comparator.comparing(Request::sentAt, Comparator.nullsFirst(Comparator.naturalOrder())));
        var span = describe(scheduled);
        if (candidate.isEmpty()) {
            return new ResponseMatch.Unmatched("no RQSN, and no open schedule request covers " + span);
        }
        var match = check(requests, candidate.get(), answeredAt, MatchMode.DEGRADED);
        if (match instanceof ResponseMatch.Matched) {
            log.warn("AUDIT degraded match: schedule answer SEQN {} without RQSN taken as the answer to request {} "
                    + "(SEQN {}, {}) by its window, which covers {}", meta.sequence(), candidate.get().id(),
                    candidate.get().seqn(), candidate.get().coverDay(), span);
        }
        return match;
    }

    /** Which of our reference requests a reference answer of {@code referenceType} answers. */
    public ResponseMatch matchReference(RequestTrack requests, MessageMeta meta, String referenceType) {
        var answeredAt = meta.sentAt().atZone(dayRule.airportZone()).toInstant();
        if (meta.requestSequence() != null) {
            var request = bySeqn(requests, meta.requestSequence())
                    .filter(r -> r.kind() == RequestKind.REFERENCE && referenceType.equals(r.subject()));
            if (request.isEmpty()) {
                return new ResponseMatch.Unmatched("no " + referenceType + " reference request with SEQN "
                        + meta.requestSequence());
            }
            return check(requests, request.get(), answeredAt, MatchMode.EXACT);
        }
        var candidate = requests.openOf(RequestKind.REFERENCE, referenceType).stream()
                .max(Comparator.comparing(Request::sentAt, Comparator.nullsFirst(Comparator.naturalOrder())));
        if (candidate.isEmpty()) {
            return new ResponseMatch.Unmatched("no RQSN, and no open " + referenceType + " reference request");
        }
        var match = check(requests, candidate.get(), answeredAt, MatchMode.DEGRADED);
        if (match instanceof ResponseMatch.Matched) {
            log.warn("AUDIT degraded match: {} answer SEQN {} without RQSN taken as the answer to request {} (SEQN {})",
                    referenceType, meta.sequence(), candidate.get().id(), candidate.get().seqn());
        }
        return match;
    }

    /** The request an {@code RQSN} names: as sent, else as our {@code SEQN} is written (its leading zeros restored). */
    private Optional<Request> bySeqn(RequestTrack requests, String rqsn) {
        var found = requests.findBySeqn(rqsn);
        var written = seqns.canonical(rqsn);
        return found.isPresent() || written.equals(rqsn) ? found : requests.findBySeqn(written);
    }

    private ResponseMatch check(RequestTrack requests, Request request, Instant answeredAt, MatchMode mode) {
        if (request.status() == RequestStatus.PENDING && mailbox != null) {
            var written = RequestSender.findWritten(mailbox, request);
            if (written.isPresent() && requests.markSent(request.id(), written.getAsLong(), request.createdAt())) {
                log.info("Request {} was PENDING (its confirmation was lost) and is found in the mailbox as COUTMSGS {}:"
                        + " confirmed sent by its answer", request.id(), written.getAsLong());
                request = requests.find(request.id()).orElseThrow();
            }
        }
        if (request.status() != RequestStatus.SENT) {
            return new ResponseMatch.Unmatched("request " + request.id() + " is " + request.status()
                    + (request.status() == RequestStatus.PENDING ? " (never confirmed sent, and not found in the mailbox)"
                    : " (closed)"));
        }
        if (request.sentAt() != null && answeredAt.isBefore(request.sentAt().minus(clockSkew))) {
            return new ResponseMatch.Unmatched("answer sent at " + answeredAt + ", before request " + request.id()
                    + " was sent at " + request.sentAt() + " (tolerance " + clockSkew + ")");
        }
        return new ResponseMatch.Matched(request, mode);
    }

    /** The schedule dates ({@code SODT}, airport local) of the answer's records, where they are valid times. */
    private static List<LocalDateTime> scheduledTimes(ScheduleMessage answer) {
        var times = new ArrayList<LocalDateTime>();
        for (var record : answer.records()) {
            if (record.patch().fields().get(FlightField.SODT) instanceof FieldChange.SetTo sodt) {
                SisTime.parse(sodt.value()).ifPresent(times::add);
            }
        }
        return times;
    }

    /**
     * Whether schedule request {@code request} asked for a flight scheduled at {@code scheduled}: within its window,
     * an open end bounding nothing (a request of a whole operation day covers exactly that day's flights). A request
     * without any window (none is registered so) covers its operation day.
     */
    private boolean covers(Request request, LocalDateTime scheduled) {
        var zone = dayRule.airportZone();
        if (request.windowStart() == null && request.windowEnd() == null) {
            return dayRule.dayOf(scheduled).date().equals(request.coverDay());
        }
        return new ScheduleWindow(
                request.windowStart() == null ? null : LocalDateTime.ofInstant(request.windowStart(), zone),
                request.windowEnd() == null ? null : LocalDateTime.ofInstant(request.windowEnd(), zone)).covers(scheduled);
    }

    private static String describe(List<LocalDateTime> scheduled) {
        var first = scheduled.stream().min(Comparator.naturalOrder()).orElseThrow();
        var last = scheduled.stream().max(Comparator.naturalOrder()).orElseThrow();
        return first.equals(last) ? "the schedule date " + first : "the schedule dates " + first + " to " + last;
    }
}
