package io.msgx.runner.operations;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.pipeline.lifecycle.MarkSettlement;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.request.ScheduleWindow;
import io.msgx.pipeline.store.DeadEvent;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.pipeline.store.Request;
import io.msgx.pipeline.store.Terminal;
import io.msgx.runner.embed.MsgExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.LocalDate;
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
 * Every action is logged at INFO as one {@code AUDIT} line naming the channel ({@code cli}, or {@code console from
 * <address>}), the operator, what was asked for and what came of it; a refused one too.
 *
 * <p>Two read-only look-ups live here because both sides show them alike: {@link #deadEvents} and {@link #flight}
 * (the state with its MAFL, read in one transaction). Every other read stays a plain store read where it is shown:
 * a message by ID or identity, the DEAD and FAILED lists, the abandoned marks, reference data, a flight's
 * notifications, the raw XML, the pipeline's status. Set-up commands ({@code migrate}, {@code seed}) and the tools
 * ({@code bench}, {@code oracle-selftest}) are not operator actions.
 */
public final class OperatorActions {

    private static final Logger log = LoggerFactory.getLogger(OperatorActions.class);

    /** How many DEAD events one round of {@link #resendAllEvents} takes. */
    private static final int RESEND_PAGE = 500;

    private final MsgExchange exchange;
    private final MarkSettlement settlement;

    public OperatorActions(MsgExchange exchange) {
        this.exchange = exchange;
        this.settlement = new MarkSettlement(exchange.store());
    }

    // --- messages ---

    /** FAILED/DEAD messages of a replayable class back to PENDING ({@link ReplayService}). */
    public ReplayService.Replay replay(Collection<Long> ids, String operator, String channel) {
        var result = exchange.replayService().replay(ids, operator);
        log.info("AUDIT {} replay by {}: asked {}, back to PENDING {}, refused {}", channel, operator, List.copyOf(ids),
                result.replayed(), result.refused());
        return result;
    }

    /**
     * The DEAD messages of one error class among the oldest {@code limit} DEAD ones back to PENDING, as
     * {@link #replay} with the channel {@code <channel> class <CLASS>}.
     *
     * @throws IllegalArgumentException (nothing changed) when the class is outside {@code msgx.replay.error-classes}
     *                                  (audited as refused) or no DEAD message of it is listed
     */
    public ReplayService.Replay replayClass(ErrorClass errorClass, int limit, String operator, String channel) {
        var replayable = exchange.config().replayable();
        if (!replayable.contains(errorClass)) {
            log.info("AUDIT {} replay of class {} by {} refused: not in msgx.replay.error-classes", channel, errorClass,
                    operator);
            throw new IllegalArgumentException(errorClass + " is not replayable (outside msgx.replay.error-classes "
                    + replayable + ")");
        }
        var ids = exchange.store().messageQueries().withStatus(ProcStatus.DEAD, limit).stream()
                .filter(r -> r.errorClass() == errorClass).map(ProcRecord::msgId).toList();
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No DEAD message of class " + errorClass);
        }
        return replay(ids, operator, channel + " class " + errorClass);
    }

    /**
     * An open message ends SKIPPED by an operator's decision (seeds §5.4), with the reason, who and when; it is marked
     * in the mailbox like any terminal message. Empty when it is not open (or not enqueued): nothing skipped.
     */
    public Optional<Terminal> skip(long id, String reason, String operator, String channel) {
        var terminal = Terminal.skipped("operator-skip by " + operator + ": " + reason);
        boolean done = exchange.store().queue().finish(id, terminal, exchange.clock().instant());
        log.info("AUDIT {} skip by {}: message {}, reason '{}': {}", channel, operator, id, oneLine(reason),
                done ? "SKIPPED" : "refused (not open or not enqueued)");
        return done ? Optional.of(terminal) : Optional.empty();
    }

    // --- abandoned mailbox marks ---

    /** Abandoned mailbox marks due again at once; returns the IDs reopened. */
    public List<Long> reopen(Collection<Long> ids, String operator, String channel) {
        var reopened = settlement.reopen(ids, exchange.clock().instant());
        log.info("AUDIT {} backfill reopen by {}: asked {}, reopened {}", channel, operator, List.copyOf(ids), reopened);
        return reopened;
    }

    /** Record that an abandoned mark was settled by hand; false when the message has no abandoned mark. */
    public boolean reconcile(long id, String operator, String note, String channel) {
        boolean done = settlement.reconcile(id, operator, note, exchange.clock().instant());
        log.info("AUDIT {} backfill reconcile by {}: message {}, note '{}': {}", channel, operator, id, oneLine(note),
                done ? "reconciled" : "refused (no abandoned mark)");
        return done;
    }

    // --- the events' dead-letter queue (issue 23, D-67) ---

    /** {@code DEAD} outbox rows of every target, oldest first, at most {@code limit}. A read: no audit line. */
    public List<DeadEvent> deadEvents(int limit) {
        return exchange.store().deadLetters().deadEvents(limit);
    }

    /** What a resend or a purge did: the IDs it changed, and those asked for that were not {@code DEAD} rows. */
    public record EventsChanged(List<Long> changed, List<Long> refused) {
        public EventsChanged {
            changed = List.copyOf(changed);
            refused = List.copyOf(refused);
        }
    }

    /** {@code DEAD} events back to {@code PENDING}, attempts 0, each keeping its {@code EVENT_ID} (D-67). */
    public EventsChanged resendEvents(Collection<Long> ids, String operator, String channel) {
        var resent = exchange.store().deadLetters().resendDead(ids, exchange.clock().instant());
        var result = new EventsChanged(resent, notAmong(ids, resent));
        log.info("AUDIT {} events resend by {}: asked {}, back to PENDING {}, not DEAD {}", channel, operator,
                List.copyOf(ids), result.changed(), result.refused());
        return result;
    }

    /**
     * Every {@code DEAD} event back to {@code PENDING}, a page at a time; an event that dies again while this runs is
     * not resent twice.
     */
    public EventsChanged resendAllEvents(String operator, String channel) {
        var resent = new TreeSet<Long>();
        var deadLetters = exchange.store().deadLetters();
        while (true) {
            var fresh = deadLetters.deadEvents(resent.size() + RESEND_PAGE).stream().map(DeadEvent::eventId)
                    .filter(id -> !resent.contains(id)).toList();
            if (fresh.isEmpty()) {
                break;
            }
            var changed = deadLetters.resendDead(fresh, exchange.clock().instant());
            if (changed.isEmpty()) {
                break;
            }
            resent.addAll(changed);
        }
        log.info("AUDIT {} events resend --all by {}: back to PENDING {}", channel, operator, List.copyOf(resent));
        return new EventsChanged(List.copyOf(resent), List.of());
    }

    /** Deletes {@code DEAD} events for good; any other row asked for is left alone. */
    public EventsChanged purgeEvents(Collection<Long> ids, String operator, String channel) {
        var purged = exchange.store().deadLetters().purgeDead(ids);
        var result = new EventsChanged(purged, notAmong(ids, purged));
        log.info("AUDIT {} events purge by {}: asked {}, deleted {}, not DEAD {}", channel, operator, List.copyOf(ids),
                result.changed(), result.refused());
        return result;
    }

    /**
     * The flight's {@code KAFKA:schd} row pending again with its current version (no new flight version); empty when
     * it has none or it is pending already.
     */
    public Optional<OutboxEntry> rearmProjection(FlightId flid, String operator, String channel) {
        var rearmed = exchange.store().projections().rearmProjection(flid, exchange.clock().instant());
        log.info("AUDIT {} events rearm by {}: FLID {}: {}", channel, operator, flid.value(), rearmed
                .map(row -> "KAFKA:schd event " + row.eventId() + " v" + row.event().stateVersion() + " PENDING again")
                .orElse("refused (no projection row, or it is pending already)"));
        return rearmed;
    }

    private static List<Long> notAmong(Collection<Long> asked, List<Long> changed) {
        return asked.stream().distinct().filter(id -> !changed.contains(id)).sorted().toList();
    }

    // --- requests to the AODB side (docs/requests.md) ---

    /** Asks for one operation day's schedule (RQFD); empty in a shadow deployment, which never writes requests. */
    public Optional<Request> requestSchedule(LocalDate day, String operator, String channel) {
        var sender = exchange.requestSender();
        var request = sender == null ? null : sender.requestSchedule(day);
        auditRequest(channel, operator, "schedule", "day " + day, request);
        return Optional.ofNullable(request);
    }

    /**
     * Asks for the schedule of a window that may be open at one end (RQFD with only STDB or only STDE, sis-format
     * §10); empty in a shadow deployment, which never writes requests.
     */
    public Optional<Request> requestSchedule(ScheduleWindow window, String operator, String channel) {
        var sender = exchange.requestSender();
        var request = sender == null ? null : sender.requestSchedule(window);
        auditRequest(channel, operator, "schedule", "window " + (window.from() == null ? "(open)" : window.from())
                + " to " + (window.to() == null ? "(open)" : window.to()), request);
        return Optional.ofNullable(request);
    }

    /** Asks for one reference type's data (RQRD); empty in a shadow deployment, which never writes requests. */
    public Optional<Request> requestReference(String type, String operator, String channel) {
        var sender = exchange.requestSender();
        var request = sender == null ? null : sender.requestReference(type);
        auditRequest(channel, operator, "reference", "type " + oneLine(type), request);
        return Optional.ofNullable(request);
    }

    private static void auditRequest(String channel, String operator, String kind, String subject, Request request) {
        log.info("AUDIT {} request {} by {}: {}: {}", channel, kind, operator, subject, request == null
                ? "refused (shadow deployment: msgx.mailbox.read-only=true)"
                : "request " + request.id() + " " + request.status());
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
