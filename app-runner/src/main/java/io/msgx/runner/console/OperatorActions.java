package io.msgx.runner.console;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.runner.embed.MsgExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What an operator looks up and does, the same from the CLI and from the console: replay, reopen and reconcile of
 * abandoned marks, and a flight with its MAFL. Every action is logged at INFO as one {@code AUDIT} line naming the
 * channel (CLI, or the console with the caller's address), the operator, the IDs asked for and what came of them.
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
