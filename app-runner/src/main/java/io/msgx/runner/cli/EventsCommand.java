package io.msgx.runner.cli;

import io.msgx.domain.flight.FlightId;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Map;

/**
 * The events' dead-letter queue (issue 23, D-67): outbox rows that ended {@code DEAD} because the broker refused them
 * on every attempt (a broker outage uses no attempt, D-66). Listing them, sending them again, deleting them, and
 * sending a flight's full state again. Every change is audited by {@link OperatorActions}. {@code dead list} is about
 * DEAD <em>messages</em> (the mailbox side) and stays as it is.
 */
@Command(name = "events", description = "Outbox events that need an operator: DEAD events, resend, purge, rearm.",
        subcommands = {EventsCommand.Dead.class, EventsCommand.Resend.class, EventsCommand.Purge.class,
                EventsCommand.Rearm.class})
final class EventsCommand {

    @Command(name = "dead", description = {"DEAD events, oldest first: ID, target, key (FLID or RTYPE:RKEY), version,",
            "attempts, when it died, last error."})
    static final class Dead extends StoreCommand {

        @Option(names = "--limit", defaultValue = "100")
        int limit;

        @Override
        int run(MsgExchange exchange) {
            return answer.printList("dead", new OperatorActions(exchange).deadEvents(limit),
                    e -> JsonOutput.object("eventId", e.eventId(), "target", e.target().code(), "key", e.key(),
                            "version", e.version(), "attempts", e.attempts(), "lastError", e.lastError(),
                            "createdAt", e.createdAt(), "diedAt", e.diedAt()),
                    e -> String.format("%d  %-10s  %-20s  v%d  %d attempt(s)  %s  %s", e.eventId(),
                            e.target().code(), e.key(), e.version(), e.attempts(), e.diedAt(), e.lastError()));
        }
    }

    /** The IDs to act on, or every DEAD event. */
    static final class Selection {
        @Parameters(paramLabel = "ID", arity = "1..*", description = "EVENT_IDs of DEAD events.")
        java.util.List<Long> ids;

        @Option(names = "--all", required = true, description = "Every DEAD event.")
        boolean all;
    }

    @Command(name = "resend", description = {"DEAD events back to PENDING with their attempts reset; the dispatcher",
            "sends them again. Each keeps its EVENT_ID: among the pending notifications of its FLID it goes in",
            "EVENT_ID order, after the earlier ones still pending and before the later ones (D-67)."})
    static final class Resend extends StoreCommand {

        @ArgGroup(multiplicity = "1")
        Selection selection;

        @Mixin
        OperatorOption operator;

        @Override
        int run(MsgExchange exchange) {
            var actions = new OperatorActions(exchange);
            var result = selection.all ? actions.resendAllEvents(operator.actor())
                    : actions.resendEvents(selection.ids, operator.actor());
            print(answer, "resent", "Back to PENDING", result);
            return result.refused().isEmpty() ? 0 : Main.REFUSED;
        }
    }

    @Command(name = "purge", description = "Delete DEAD events for good (only DEAD rows; any other ID is refused).")
    static final class Purge extends StoreCommand {

        @Parameters(paramLabel = "ID", arity = "1..*", description = "EVENT_IDs of DEAD events.")
        java.util.List<Long> ids;

        @Mixin
        OperatorOption operator;

        @Override
        int run(MsgExchange exchange) {
            var result = new OperatorActions(exchange).purgeEvents(ids, operator.actor());
            print(answer, "purged", "Deleted", result);
            return result.refused().isEmpty() ? 0 : Main.REFUSED;
        }
    }

    @Command(name = "rearm", description = {"Send a flight's full state (its KAFKA:schd row) again with its current",
            "version, whether it was delivered or DEAD; no new flight version is made."})
    static final class Rearm extends StoreCommand {

        @Parameters(paramLabel = "FLID")
        String flid;

        @Mixin
        OperatorOption operator;

        @Override
        int run(MsgExchange exchange) {
            var rearmed = new OperatorActions(exchange).rearmProjection(FlightId.of(flid), operator.actor());
            if (rearmed.isEmpty()) {
                return answer.refuse(Main.REFUSED, "FLID " + flid + " has no delivered or DEAD projection row"
                        + " (none written, cleaned up after msgx.pipeline.event-retention, or pending already):"
                        + " nothing rearmed.");
            }
            var row = rearmed.get();
            return answer.print(Map.of("flid", flid, "eventId", row.eventId(), "version",
                    row.event().stateVersion(), "status", row.status()), "FLID " + flid + ": KAFKA:schd event "
                    + row.eventId() + " v" + row.event().stateVersion() + " PENDING again");
        }
    }

    private static void print(CommandAnswer answer, String key, String label, OperatorActions.EventsChanged result) {
        answer.print(Map.of(key, result.changed(), "notDead", result.refused()), label + " " + result.changed()
                + (result.refused().isEmpty() ? "" : "; not DEAD (left alone) " + result.refused()));
    }
}
