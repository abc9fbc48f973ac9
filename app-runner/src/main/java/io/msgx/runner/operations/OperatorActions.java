package io.msgx.runner.operations;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.pipeline.audit.Actor;
import io.msgx.pipeline.audit.AuditAction;
import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.audit.AuditedAction;
import io.msgx.pipeline.lifecycle.MarkSettlement;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.record.DeadEvent;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.request.ScheduleWindow;
import io.msgx.runner.embed.MsgExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The one operator API: what an operator does by hand, the same from the CLI ({@code io.msgx.runner.cli}) and from
 * the console ({@code io.msgx.runner.console}), which both call it and neither does these things itself (D-93).
 *
 * <ul>
 *   <li>messages: {@link #replay}, {@link #replayClass} (the DEAD messages of one whitelisted class), {@link #skip};</li>
 *   <li>abandoned mailbox marks: {@link #reopen}, {@link #reconcile};</li>
 *   <li>the events' dead-letter queue (D-67): {@link #resendEvents}, {@link #resendAllEvents}, {@link #purgeEvents},
 *       {@link #rearmProjection};</li>
 *   <li>requests to the AODB side: {@link #requestSchedule}, {@link #requestReference}.</li>
 * </ul>
 *
 * Every action names who asks and from where ({@link Actor}: the operator, {@code cli} or {@code console}, the host and
 * OS user or the remote address) and is <b>recorded in the store</b>: one {@code OPERATOR_AUDIT} row (issue 36,
 * D-137, D-138) written in the same transaction as the action's own change, with the items asked for and the outcome
 * ({@code DONE}, {@code PARTLY}, {@code REFUSED}: what changed, what was refused and why). A refused action, which
 * changed nothing, is recorded too; an action that failed (rolled back) leaves no row; a request to the AODB is recorded
 * in the transaction that registers it. That row is the record: {@code audit} and {@code /console/audit} show it, and
 * {@code msgx.audit.retention} keeps it. Each action is also logged at INFO as one {@code AUDIT} line (the channel, the
 * operator, what was asked and what came of it), for the journal; the line is a convenience, not the record.
 *
 * <p>Two read-only look-ups live here because both sides show them alike: {@link #deadEvents} and {@link #flight}
 * (the state with its MAFL, read in one transaction), and the trail itself ({@link #auditTrail}). Every other read
 * stays a plain store read where it is shown: a message by ID or identity, the DEAD and FAILED lists, the abandoned
 * marks, reference data, a flight's notifications, the raw XML, the pipeline's status. Set-up commands
 * ({@code migrate}, {@code seed}) and the tools ({@code bench}, {@code oracle-selftest}) are not operator actions.
 */
public final class OperatorActions {

    private static final Logger log = LoggerFactory.getLogger(OperatorActions.class);

    /** How many DEAD events one round of {@link #resendAllEvents} takes. */
    private static final int RESEND_PAGE = 500;

    /** How many of the oldest DEAD messages a replay by class looks among, from the console and the CLI alike. */
    public static final int OLDEST_DEAD_SCANNED = 500;

    private final MsgExchange exchange;
    private final MarkSettlement settlement;

    public OperatorActions(MsgExchange exchange) {
        this.exchange = exchange;
        this.settlement = new MarkSettlement(exchange.store());
    }

    private AuditedAction audited(Actor actor, AuditAction action, String items) {
        return new AuditedAction(exchange.store(), exchange.clock(), actor, action, items);
    }

    // --- messages ---

    /** FAILED/DEAD messages of a replayable class back to PENDING ({@link ReplayService}). */
    public ReplayService.Replay replay(Collection<Long> ids, Actor actor) {
        var result = exchange.replayService().replay(ids, audited(actor, AuditAction.REPLAY, "messages "
                + AuditResult.list(new TreeSet<>(ids))));
        log.info("AUDIT {} replay by {}: asked {}, back to PENDING {}, refused {}", actor.logChannel(), actor.name(),
                List.copyOf(ids), result.replayed(), result.refused());
        return result;
    }

    /**
     * The DEAD messages of one error class among the oldest {@code limit} DEAD ones back to PENDING, as
     * {@link #replay}, recorded as {@code replay-class}.
     *
     * @throws IllegalArgumentException (nothing changed, recorded as refused) when the class is outside
     *                                  {@code msgx.replay.error-classes} or no DEAD message of it is listed
     */
    public ReplayService.Replay replayClass(ErrorClass errorClass, int limit, Actor actor) {
        var replayable = exchange.config().replayable();
        if (!replayable.contains(errorClass)) {
            log.info("AUDIT {} replay of class {} by {} refused: not in msgx.replay.error-classes", actor.logChannel(),
                    errorClass, actor.name());
            var refusal = errorClass + " is not replayable (outside msgx.replay.error-classes " + replayable + ")";
            audited(actor, AuditAction.REPLAY_CLASS, "class " + errorClass).refused(refusal);
            throw new IllegalArgumentException(refusal);
        }
        var ids = exchange.store().messageQueries().withStatus(ProcStatus.DEAD, limit).stream()
                .filter(r -> r.errorClass() == errorClass).map(ProcRecord::msgId).toList();
        if (ids.isEmpty()) {
            var refusal = "No DEAD message of class " + errorClass;
            audited(actor, AuditAction.REPLAY_CLASS, "class " + errorClass).refused(refusal + " among the oldest "
                    + limit + " DEAD ones");
            throw new IllegalArgumentException(refusal);
        }
        var result = exchange.replayService().replay(ids, audited(actor, AuditAction.REPLAY_CLASS, "class "
                + errorClass + ": messages " + AuditResult.list(ids)));
        log.info("AUDIT {} class {} replay by {}: asked {}, back to PENDING {}, refused {}", actor.logChannel(),
                errorClass, actor.name(), ids, result.replayed(), result.refused());
        return result;
    }

    /**
     * An open message ends SKIPPED by an operator's decision (seeds §5.4), with the reason, who and when; it is marked
     * in the mailbox like any terminal message. Empty when it is not open (or not enqueued): nothing skipped, recorded
     * as refused.
     */
    public Optional<MessageEnd> skip(long id, String reason, Actor actor) {
        var terminal = MessageEnd.skipped("operator-skip by " + actor.name() + ": " + reason);
        var now = exchange.clock().instant();
        boolean done = audited(actor, AuditAction.SKIP, "message " + id).run(tx -> tx.queue().finish(id, terminal, now),
                skipped -> skipped ? AuditResult.done("message " + id + " SKIPPED", reason)
                        : AuditResult.refused("message " + id, "not open or not enqueued (reason given: " + reason + ")"));
        log.info("AUDIT {} skip by {}: message {}, reason '{}': {}", actor.logChannel(), actor.name(), id,
                oneLine(reason), done ? "SKIPPED" : "refused (not open or not enqueued)");
        return done ? Optional.of(terminal) : Optional.empty();
    }

    // --- abandoned mailbox marks ---

    /** Abandoned mailbox marks due again at once; returns the IDs reopened. */
    public List<Long> reopen(Collection<Long> ids, Actor actor) {
        var reopened = settlement.reopen(ids, exchange.clock().instant(), audited(actor, AuditAction.BACKFILL_REOPEN,
                "messages " + AuditResult.list(new TreeSet<>(ids))));
        log.info("AUDIT {} backfill reopen by {}: asked {}, reopened {}", actor.logChannel(), actor.name(),
                List.copyOf(ids), reopened);
        return reopened;
    }

    /**
     * Record that an abandoned mark was settled by hand, by {@code actor}; false when the message has no abandoned
     * mark (recorded as refused).
     */
    public boolean reconcile(long id, String note, Actor actor) {
        boolean done = settlement.reconcile(id, note, exchange.clock().instant(),
                audited(actor, AuditAction.BACKFILL_RECONCILE, "message " + id));
        log.info("AUDIT {} backfill reconcile by {}: message {}, note '{}': {}", actor.logChannel(), actor.name(), id,
                oneLine(note), done ? "reconciled" : "refused (no abandoned mark)");
        return done;
    }

    // --- the events' dead-letter queue (issue 23, D-67) ---

    /** {@code DEAD} outbox rows of every target, oldest first, at most {@code limit}. A read: no audit row. */
    public List<DeadEvent> deadEvents(int limit) {
        return exchange.store().deadLetters().deadEvents(limit);
    }

    /** What a resend or a purge did: the IDs it changed, and those asked for that were not {@code DEAD} rows. */
    public record EventsChanged(List<Long> changed, List<Long> refused) {
        public EventsChanged {
            changed = List.copyOf(changed);
            refused = List.copyOf(refused);
        }

        AuditResult audited() {
            return AuditResult.of(changed, refused, refused.isEmpty() ? null : "not DEAD events: left alone");
        }
    }

    /** {@code DEAD} events back to {@code PENDING}, attempts 0, each keeping its {@code EVENT_ID} (D-67). */
    public EventsChanged resendEvents(Collection<Long> ids, Actor actor) {
        var now = exchange.clock().instant();
        var result = audited(actor, AuditAction.EVENTS_RESEND, "events " + AuditResult.list(new TreeSet<>(ids))).run(
                tx -> {
                    var resent = tx.deadLetters().resendDead(ids, now);
                    return new EventsChanged(resent, notAmong(ids, resent));
                }, EventsChanged::audited);
        log.info("AUDIT {} events resend by {}: asked {}, back to PENDING {}, not DEAD {}", actor.logChannel(),
                actor.name(), List.copyOf(ids), result.changed(), result.refused());
        return result;
    }

    /**
     * Every {@code DEAD} event back to {@code PENDING}, a page at a time, all in one transaction with the audit row (no
     * event resent here can die again before it commits).
     */
    public EventsChanged resendAllEvents(Actor actor) {
        var now = exchange.clock().instant();
        var result = audited(actor, AuditAction.EVENTS_RESEND_ALL, "all DEAD events").run(tx -> {
            var resent = new TreeSet<Long>();
            var deadLetters = tx.deadLetters();
            while (true) {
                var fresh = deadLetters.deadEvents(resent.size() + RESEND_PAGE).stream().map(DeadEvent::eventId)
                        .filter(id -> !resent.contains(id)).toList();
                if (fresh.isEmpty()) {
                    break;
                }
                var changed = deadLetters.resendDead(fresh, now);
                if (changed.isEmpty()) {
                    break;
                }
                resent.addAll(changed);
            }
            return new EventsChanged(List.copyOf(resent), List.of());
        }, changed -> changed.changed().isEmpty() ? AuditResult.done(null, "no DEAD event") : changed.audited());
        log.info("AUDIT {} events resend --all by {}: back to PENDING {}", actor.logChannel(), actor.name(),
                result.changed());
        return result;
    }

    /** Deletes {@code DEAD} events for good; any other row asked for is left alone. */
    public EventsChanged purgeEvents(Collection<Long> ids, Actor actor) {
        var result = audited(actor, AuditAction.EVENTS_PURGE, "events " + AuditResult.list(new TreeSet<>(ids))).run(
                tx -> {
                    var purged = tx.deadLetters().purgeDead(ids);
                    return new EventsChanged(purged, notAmong(ids, purged));
                }, EventsChanged::audited);
        log.info("AUDIT {} events purge by {}: asked {}, deleted {}, not DEAD {}", actor.logChannel(), actor.name(),
                List.copyOf(ids), result.changed(), result.refused());
        return result;
    }

    /**
     * The flight's {@code KAFKA:schd} row pending again with its current version (no new flight version); empty when
     * it has none or it is pending already (recorded as refused).
     */
    public Optional<OutboxEntry> rearmProjection(FlightId flid, Actor actor) {
        var now = exchange.clock().instant();
        var rearmed = audited(actor, AuditAction.EVENTS_REARM, "FLID " + flid.value()).run(
                tx -> tx.projections().rearmProjection(flid, now), row -> row
                        .map(r -> AuditResult.done(rearmedText(r), null))
                        .orElseGet(() -> AuditResult.refused("FLID " + flid.value(),
                                "no delivered or DEAD projection row (none written, cleaned up, or pending already)")));
        log.info("AUDIT {} events rearm by {}: FLID {}: {}", actor.logChannel(), actor.name(), flid.value(), rearmed
                .map(OperatorActions::rearmedText)
                .orElse("refused (no projection row, or it is pending already)"));
        return rearmed;
    }

    private static String rearmedText(OutboxEntry row) {
        return "KAFKA:schd event " + row.eventId() + " v" + row.event().stateVersion() + " PENDING again";
    }

    private static List<Long> notAmong(Collection<Long> asked, List<Long> changed) {
        return asked.stream().distinct().filter(id -> !changed.contains(id)).sorted().toList();
    }

    // --- requests to the AODB side (docs/requests.md) ---

    /** Asks for one operation day's schedule (RQFD); empty in a shadow deployment, which never writes requests. */
    public Optional<Request> requestSchedule(LocalDate day, Actor actor) {
        var audit = audited(actor, AuditAction.REQUEST_SCHEDULE, "day " + day);
        var sender = exchange.requestSender();
        var request = sender == null ? refusedInShadow(audit) : sender.requestSchedule(day, audit);
        auditRequest(actor, "schedule", "day " + day, request);
        return Optional.ofNullable(request);
    }

    /**
     * Asks for the schedule of a window that may be open at one end (RQFD with only STDB or only STDE, sis-format
     * §10); empty in a shadow deployment, which never writes requests.
     */
    public Optional<Request> requestSchedule(ScheduleWindow window, Actor actor) {
        var subject = "window " + (window.from() == null ? "(open)" : window.from()) + " to "
                + (window.to() == null ? "(open)" : window.to());
        var audit = audited(actor, AuditAction.REQUEST_SCHEDULE, subject);
        var sender = exchange.requestSender();
        var request = sender == null ? refusedInShadow(audit) : sender.requestSchedule(window, audit);
        auditRequest(actor, "schedule", subject, request);
        return Optional.ofNullable(request);
    }

    /** Asks for one reference type's data (RQRD); empty in a shadow deployment, which never writes requests. */
    public Optional<Request> requestReference(String type, Actor actor) {
        var audit = audited(actor, AuditAction.REQUEST_REFERENCE, "type " + oneLine(type));
        var sender = exchange.requestSender();
        var request = sender == null ? refusedInShadow(audit) : sender.requestReference(type, audit);
        auditRequest(actor, "reference", "type " + oneLine(type), request);
        return Optional.ofNullable(request);
    }

    private static final String SHADOW = "shadow deployment: msgx.mailbox.read-only=true";

    private static Request refusedInShadow(AuditedAction audit) {
        audit.refused(SHADOW);
        return null;
    }

    private static void auditRequest(Actor actor, String kind, String subject, Request request) {
        log.info("AUDIT {} request {} by {}: {}: {}", actor.logChannel(), kind, actor.name(), subject, request == null
                ? "refused (" + SHADOW + ")"
                : "request " + request.id() + " " + request.status());
    }

    // --- the trail ---

    /** The audit trail's rows {@code filter} selects, newest first. A read: no audit row. */
    public List<OperatorAudit.Stored> auditTrail(OperatorAudit.Filter filter) {
        return exchange.store().operatorAudit().newestFirst(filter);
    }

    /**
     * The start of an audit listing as an operator writes it (the CLI's {@code --since}, the console's {@code since}):
     * an instant ({@code 2024-03-11T08:00:00Z}), an airport-local time ({@code 2024-03-11T16:00}), a day (its start,
     * airport time: {@code 2024-03-11}) or a time ago ({@code 30m}, {@code 24h}, {@code 7d}, from the clock's now);
     * null or blank for none.
     *
     * @throws IllegalArgumentException naming the forms when {@code text} is none of them
     */
    public Instant auditSince(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        var value = text.strip();
        var zone = exchange.config().engine().operationDayRule().airportZone();
        var ago = java.util.regex.Pattern.compile("(\\d{1,6})([mhd])").matcher(value);
        if (ago.matches()) {
            long amount = Long.parseLong(ago.group(1));
            var unit = switch (ago.group(2)) {
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
            return exchange.clock().instant().minus(unit);
        }
        try {
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay(zone).toInstant();
            }
            if (value.endsWith("Z") || value.matches(".*[+-]\\d\\d:\\d\\d$")) {
                return java.time.OffsetDateTime.parse(value).toInstant();
            }
            return LocalDateTime.parse(value).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + oneLine(value) + "' is not a start: give an instant "
                    + "(2024-03-11T08:00:00Z), an airport-local time (2024-03-11T16:00), a day (2024-03-11) or a time "
                    + "ago (30m, 24h, 7d)");
        }
    }

    // --- a read both sides show alike ---

    /** A flight as the store holds it, with its MAFL when it carries one (null otherwise). */
    public record FlightView(FlightState flight, List<MaflEntry> mafl) {
    }

    /** The flight's current state and MAFL, read in one transaction; empty when there is no such FLID. */
    public Optional<FlightView> flight(FlightId id) {
        return Optional.ofNullable(exchange.store().inTransaction(tx -> {
            var found = tx.flights().find(List.of(id));
            if (found.isEmpty()) {
                return null;
            }
            var flight = found.get(0);
            var mafl = flight.isActive() && flight.carriesMafl()
                    ? MaflProjection.of(id, tx.flights().findChildrenOf(List.of(id))) : null;
            return new FlightView(flight, mafl);
        }));
    }

    /** A text for an audit line: control characters (a forged second line) become blanks. */
    private static String oneLine(String text) {
        return text == null ? null : text.replaceAll("\\p{Cntrl}", " ");
    }
}
