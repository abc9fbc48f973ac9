package io.msgx.pipeline.request;

import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.flight.SisTime;
import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.audit.AuditedAction;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.OutboundMessage;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.record.RequestKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Sends our requests to the AODB side through {@code COUTMSGS} (seeds §7.2, sis-format §6): a schedule request
 * ({@code RQFD}, the window of one operation day, or a window open at one end) or a reference request ({@code RQRD},
 * one reference type).
 *
 * <p>Three steps, each recorded: register the request ({@code PENDING}, expiring the open one of the same kind
 * first), write the message to the mailbox, and mark the request {@code SENT} with the outbound ID. Only a
 * confirmed mailbox write makes a request {@code SENT}. If the write succeeded but the confirmation was lost
 * (the store went away between the two), the request stays {@code PENDING}; {@link #confirmPending} then finds
 * the written row by the request's {@code SEQN} — our own, unique among the open requests, echoed by the answer as
 * {@code RQSN}; the numbers cycle (D-111), so the row is looked for only among those written since the request was
 * registered, never an older one with the same number — and confirms it instead of writing the message a second time. It runs as a round of its own every minute (the
 * {@code request-confirmation} job) and before every new request: while a request for the same day or reference
 * type is {@code PENDING}, asking again settles that one instead of writing a second, so the AODB's exact answer to
 * the first is never turned away (issue 24). An answer that arrives before the round ran finds its request through
 * {@link #findWritten} ({@link ResponseMatcher}). Writing a request and a confirmation round never overlap, in
 * this process or between processes: both hold the store's lifecycle lock ({@link MessageLifecycleGate}).
 */
public final class RequestSender {

    private static final Logger log = LoggerFactory.getLogger(RequestSender.class);
    private static final DateTimeFormatter DTTM = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
    /** The first line of every request: the text is UTF-8 ({@code COUTMSGS_CLOB_MSG} is {@code utf8mb4}). */
    public static final String XML_DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
    private static final String XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

    private final Mailbox mailbox;
    private final PipelineStore store;
    private final RequestSettings settings;
    private final OperationDayRule dayRule;
    private final Clock clock;
    /**
     * Held by whoever writes requests to the mailbox: a request being written and a confirmation round would both see
     * it {@code PENDING} with nothing in {@code COUTMSGS} yet, and both write it (the AODB would get two requests with
     * one {@code SEQN}). Within this process and, through the store's lock, between processes (the CLI's
     * {@code request} beside the active instance's confirmation job).
     */
    private final MessageLifecycleGate writing;

    public RequestSender(Mailbox mailbox, PipelineStore store, RequestSettings settings, OperationDayRule dayRule,
                         Clock clock) {
        this.mailbox = mailbox;
        this.store = store;
        this.settings = settings;
        this.dayRule = dayRule;
        this.clock = clock;
        this.writing = new MessageLifecycleGate(store);
    }

    /** Ask for the schedule of one operation day: the window from its cut-over to the next. */
    public Request requestSchedule(LocalDate day) {
        return requestSchedule(day, null);
    }

    /**
     * {@link #requestSchedule(LocalDate)} asked by an operator: {@code audit} (null for none) is recorded in the
     * transaction that registers the request, or that confirms the unconfirmed one settled instead (D-138).
     */
    public Request requestSchedule(LocalDate day, AuditedAction audit) {
        return requestSchedule(ScheduleWindow.ofDay(day, dayRule), audit);
    }

    /**
     * Ask for the schedule of {@code window}, which may be open at one end (only {@code STDB} or only {@code STDE},
     * sis-format §10); filed under the operation day of its start, or of its end when it has none.
     */
    public Request requestSchedule(ScheduleWindow window) {
        return requestSchedule(window, null);
    }

    /** {@link #requestSchedule(ScheduleWindow)} asked by an operator, {@code audit} recorded as for a day. */
    public Request requestSchedule(ScheduleWindow window, AuditedAction audit) {
        var zone = dayRule.airportZone();
        return send(RequestKind.SCHEDULE, null, window.coverDay(dayRule).date(),
                window.from() == null ? null : window.from().atZone(zone).toInstant(),
                window.to() == null ? null : window.to().atZone(zone).toInstant(), audit);
    }

    /** Ask for one reference type's data ({@code GLST}, {@code SLST}, ... sis-format §6); answered by its {@code RESP}. */
    public Request requestReference(String type) {
        return requestReference(type, null);
    }

    /**
     * {@link #requestReference(String)} asked by an operator, {@code audit} recorded as for a schedule; a type refused
     * is recorded as refused.
     */
    public Request requestReference(String type, AuditedAction audit) {
        var code = Objects.requireNonNull(type, "type").strip().toUpperCase(java.util.Locale.ROOT);
        if (!code.matches("[A-Z0-9]{1,16}")) {
            var refusal = new IllegalArgumentException("a reference type is 1 to 16 letters or digits, got '" + type
                    + "'");
            if (audit != null) {
                audit.refused(refusal.getMessage());
            }
            throw refusal;
        }
        return send(RequestKind.REFERENCE, code, null, null, null, audit);
    }

    /**
     * Settle every request left {@code PENDING} (a lost confirmation, or a write the mailbox refused), oldest first: a
     * request whose message is found in the mailbox is confirmed {@code SENT} with that row; one that is not found is
     * written now. Returns the requests settled; when the mailbox is away the round stops there and the rest wait for
     * the next one.
     */
    public List<Request> confirmPending() {
        if (store.requests().pending().isEmpty()) {
            return List.of(); // the usual minute: nothing to settle, no lock taken
        }
        return writing.exclusively(this::settleEveryPending);
    }

    private List<Request> settleEveryPending() {
        var settled = new ArrayList<Request>();
        for (var request : store.requests().pending()) {
            try {
                settled.add(settle(request, null));
            } catch (MailboxUnavailableException e) {
                log.warn("Request {} still PENDING: the mailbox is away ({}); the next round tries again", request.id(),
                        e.getMessage());
                break;
            }
        }
        return settled;
    }

    /** The {@code COUTMSGS} row {@code request} was written as, found by its {@code SEQN}; empty when not written. */
    public static OptionalLong findWritten(Mailbox mailbox, Request request) {
        return mailbox.findOutbound(seqnMarker(request.seqn()), request.createdAt());
    }

    private Request send(RequestKind kind, String subject, LocalDate day, java.time.Instant windowStart,
                         java.time.Instant windowEnd, AuditedAction audit) {
        return writing.exclusively(() -> registerAndWrite(kind, subject, day, windowStart, windowEnd, audit));
    }

    private Request registerAndWrite(RequestKind kind, String subject, LocalDate day, java.time.Instant windowStart,
                                     java.time.Instant windowEnd, AuditedAction audit) {
        var unconfirmed = store.requests().pending().stream()
                .filter(r -> r.kind() == kind && Objects.equals(r.subject(), subject) && Objects.equals(r.coverDay(), day)
                        && Objects.equals(r.windowStart(), windowStart) && Objects.equals(r.windowEnd(), windowEnd))
                .findFirst();
        if (unconfirmed.isPresent()) {
            log.info("Request {} ({} {}) is still PENDING: settled instead of asking a second time", unconfirmed.get().id(),
                    kind, subject == null ? day : subject);
            return settle(unconfirmed.get(), audit);
        }
        var now = clock.instant();
        var seqn = nextSeqn();
        var request = audit == null
                ? store.requests().register(kind, subject, day, settings.sender(), seqn, windowStart, windowEnd, now)
                : audit.run(tx -> tx.requests().register(kind, subject, day, settings.sender(), seqn, windowStart,
                        windowEnd, now), registered -> AuditResult.done("request " + registered.id() + " SEQN "
                        + registered.seqn() + " registered", "written to COUTMSGS next; REQ_TRACK shows when SENT"));
        long outId;
        try {
            outId = mailbox.appendOutbound(new OutboundMessage(xml(request), settings.routingId(kind), now));
        } catch (MailboxUnavailableException e) {
            log.warn("Request {} ({} {}) registered but not written to the mailbox: {}; it stays PENDING and is "
                    + "written by the next confirmation round", request.id(), kind, subject == null ? day : subject,
                    e.getMessage());
            return store.requests().find(request.id()).orElseThrow();
        }
        store.requests().markSent(request.id(), outId, clock.instant());
        log.info("Request {} sent: {} {} as SEQN {} (COUTMSGS {})", request.id(), kind, subject == null ? day : subject,
                seqn, outId);
        return store.requests().find(request.id()).orElseThrow();
    }

    /**
     * Confirm a {@code PENDING} request, writing it first when it is not in the mailbox; with {@code audit} (an
     * operator asked again while it was pending), the confirmation and the audit row in one transaction.
     */
    private Request settle(Request request, AuditedAction audit) {
        var written = findWritten(mailbox, request);
        long outId;
        if (written.isPresent()) {
            outId = written.getAsLong();
            log.info("Request {} found in the mailbox as COUTMSGS {}: confirmed, not resent", request.id(), outId);
        } else {
            outId = mailbox.appendOutbound(new OutboundMessage(xml(request), settings.routingId(request.kind()),
                    clock.instant()));
            log.info("Request {} was not in the mailbox: written now as COUTMSGS {}", request.id(), outId);
        }
        if (audit == null) {
            store.requests().markSent(request.id(), outId, clock.instant());
        } else {
            audit.run(tx -> tx.requests().markSent(request.id(), outId, clock.instant()), sent -> AuditResult.done(
                    "request " + request.id() + " SEQN " + request.seqn() + (sent ? " SENT as COUTMSGS " + outId
                            : " already confirmed"), "was still PENDING: settled instead of asking a second time"));
        }
        return store.requests().find(request.id()).orElseThrow();
    }

    /** The message a request is sent as (sis-format §6), built from what the request records. */
    private String xml(Request request) {
        if (request.kind() == RequestKind.SCHEDULE) {
            return xml(request.seqn(), "RQFD", "NONE", "<RQFD>" + bound("STDB", request.windowStart())
                    + bound("STDE", request.windowEnd()) + "</RQFD>");
        }
        return xml(request.seqn(), "RQRD", request.subject(), "<RQRD><RTYP>" + request.subject() + "</RTYP></RQRD>");
    }

    /**
     * A complete document (sis-format §10): the XML declaration, then {@code MSG}, with the {@code xsi} schema
     * attributes when {@code msgx.requests.schema-location} is set.
     */
    private String xml(String seqn, String type, String styp, String body) {
        var sentAt = LocalDateTime.ofInstant(clock.instant(), dayRule.airportZone());
        return XML_DECLARATION + "<MSG" + schemaAttributes() + "><META><SNDR>" + settings.sender() + "</SNDR>"
                + seqnMarker(seqn) + "<DTTM>" + DTTM.format(sentAt) + "</DTTM><TYPE>" + type + "</TYPE><STYP>" + styp
                + "</STYP></META>" + body + "</MSG>";
    }

    private String schemaAttributes() {
        return settings.writesSchemaLocation()
                ? " xmlns:xsi=\"" + XSI_NAMESPACE + "\" xsi:noNamespaceSchemaLocation=\"" + settings.schemaLocation() + "\""
                : "";
    }

    /** One end of a schedule window ({@code STDB}, {@code STDE}); nothing for an open end. */
    private String bound(String element, java.time.Instant at) {
        return at == null ? ""
                : "<" + element + ">" + SisTime.format(LocalDateTime.ofInstant(at, dayRule.airportZone())) + "</"
                + element + ">";
    }

    private static String seqnMarker(String seqn) {
        return "<SEQN>" + seqn + "</SEQN>";
    }

    /**
     * Our next SEQN (D-111): the one after the {@code SEQN} of the request registered last, in the bounded cycle of
     * {@link RequestSettings#seqns()}, skipping the numbers of open requests. Read from the store under
     * {@link #writing}, so a restart, or the CLI and the runner asking in turn, continue one cycle without a counter
     * of their own.
     */
    private String nextSeqn() {
        return settings.seqns().next(store.requests().lastSeqn(), store.requests().openSeqns());
    }
}
