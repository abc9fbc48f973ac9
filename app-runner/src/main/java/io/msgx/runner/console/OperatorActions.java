package io.msgx.runner.console;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.store.DeadEvent;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.runner.embed.MsgExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What an operator looks up and does, the same from the CLI and from the console: replay, reopen and reconcile of
 * abandoned marks, the events' dead-letter queue (resend, purge, rearm), and a flight with its MAFL. Every action is
 * logged at INFO as one {@code AUDIT} line naming the channel (CLI, or the console with the caller's address), the
 * operator, the IDs asked for and what came of them.
 */
public final class OperatorActions {

    private static final Logger log = LoggerFactory.getLogger(OperatorActions.class);

    private final MsgExchange exchange;

    public OperatorActions(MsgExchange exchange) {
        this.exchange = exchange;
    }

    /** FAILED/DEAD messages of a replayable class back to PENDING ({@link ReplayService}). */
    public ReplayService.Replay replay(Collection<Long> ids, String operator, String channel) {
        var result = exchange.replayService().replay(ids, operator);
        log.info("AUDIT {} replay by {}: asked {}, back to PENDING {}, refused {}", channel, operator, List.copyOf(ids),
                result.replayed(), result.refused());
        return result;
    }

    /** Abandoned mailbox marks due again at once; returns the IDs reopened. */
    public List<Long> reopen(Collection<Long> ids, String operator, String channel) {
        var reopened = exchange.store().procStates().reopenAbandoned(ids, exchange.clock().instant());
        log.info("AUDIT {} backfill reopen by {}: asked {}, reopened {}", channel, operator, List.copyOf(ids), reopened);
        return reopened;
    }

    /** Record that an abandoned mark was settled by hand; false when the message has no abandoned mark. */
    public boolean reconcile(long id, String operator, String note, String channel) {
        boolean done = exchange.store().procStates().reconcileAbandoned(id, operator, note, exchange.clock().instant());
        log.info("AUDIT {} backfill reconcile by {}: message {}, note '{}': {}", channel, operator, id,
                note.replaceAll("\\p{Cntrl}", " "), done ? "reconciled" : "refused (no abandoned mark)");
        return done;
    }

    // --- the events' dead-letter queue (issue 23, D-67) ---

    /** {@code DEAD} outbox rows of every target, oldest first, at most {@code limit}. */
    public List<DeadEvent> deadEvents(int limit) {
        return exchange.store().outbox().deadEvents(limit);
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
        var resent = exchange.store().outbox().resendDead(ids, exchange.clock().instant());
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
        var resent = new java.util.TreeSet<Long>();
        var outbox = exchange.store().outbox();
        while (true) {
            var fresh = outbox.deadEvents(resent.size() + RESEND_PAGE).stream().map(DeadEvent::eventId)
                    .filter(id -> !resent.contains(id)).toList();
            if (fresh.isEmpty()) {
                break;
            }
            var changed = outbox.resendDead(fresh, exchange.clock().instant());
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
        var purged = exchange.store().outbox().purgeDead(ids);
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
        var rearmed = exchange.store().outbox().rearmProjection(flid, exchange.clock().instant());
        log.info("AUDIT {} events rearm by {}: FLID {}: {}", channel, operator, flid.value(), rearmed
                .map(row -> "KAFKA:schd event " + row.eventId() + " v" + row.event().stateVersion() + " PENDING again")
                .orElse("refused (no projection row, or it is pending already)"));
        return rearmed;
    }

    private static final int RESEND_PAGE = 500;

    private static List<Long> notAmong(Collection<Long> asked, List<Long> changed) {
        return asked.stream().distinct().filter(id -> !changed.contains(id)).sorted().toList();
    }

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
}
