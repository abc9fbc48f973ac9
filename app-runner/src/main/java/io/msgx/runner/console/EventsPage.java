package io.msgx.runner.console;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.DeadEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.runner.operations.OperatorActions;

import java.util.List;

/**
 * {@code /console/events}: the events' dead-letter queue (D-67), each DEAD outbox row with a resend and a purge
 * button, a resend of all, and a form that sends a flight's full state again; and those actions.
 */
final class EventsPage {

    /** What {@code events.jte} shows: the DEAD events, oldest first, at most {@code limit}. */
    record Model(Frame frame, List<DeadEvent> dead, int limit) {

        /** A key that is a FLID links to its flight; a reference record's key does not. */
        static boolean isFlight(DeadEvent event) {
            return event.target() != OutboxTarget.KAFKA_REF;
        }
    }

    private final OperatorActions operator;
    private final Templates templates;

    EventsPage(OperatorActions operator, Templates templates) {
        this.operator = operator;
        this.templates = templates;
    }

    Answer page(Call call) {
        return Answer.html(200, templates.render("events",
                new Model(call.frame("DEAD events"), operator.deadEvents(Console.LIST_LIMIT), Console.LIST_LIMIT)));
    }

    /** DEAD events named (or {@code all=yes}: every one) back to PENDING. */
    Answer resend(Call call) {
        OperatorActions.EventsChanged result;
        if ("yes".equals(call.params().get("all"))) {
            result = operator.resendAllEvents(call.actor());
        } else {
            result = operator.resendEvents(named(call), call.actor());
        }
        return changed(call, "Resend", "Back to PENDING", result);
    }

    /** DEAD events named deleted for good. */
    Answer purge(Call call) {
        return changed(call, "Purge", "Deleted", operator.purgeEvents(named(call), call.actor()));
    }

    /** A flight's full state sent again: its projection row PENDING with its current version. */
    Answer rearm(Call call) {
        var flid = call.params().get("flid");
        if (flid == null || flid.isBlank()) {
            throw new IllegalArgumentException("Name a FLID");
        }
        var rearmed = operator.rearmProjection(FlightId.of(flid.strip()), call.actor());
        var text = rearmed.map(row -> "FLID " + flid.strip() + ": its full state (version "
                        + row.event().stateVersion() + ", event " + row.eventId() + ") goes out again.")
                .orElse("FLID " + flid.strip() + " has no delivered or DEAD projection row (none written, cleaned up,"
                        + " or pending already): nothing rearmed.");
        return Answer.html(rearmed.isPresent() ? 200 : 409, templates.render("result",
                new Result(call.frame("Rearm"), text, null, Result.EVENTS, "Back to the DEAD events")));
    }

    private static List<Long> named(Call call) {
        var ids = call.params().ids("ids");
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No event named");
        }
        return ids;
    }

    private Answer changed(Call call, String title, String label, OperatorActions.EventsChanged result) {
        var text = label + ": " + (result.changed().isEmpty() ? "none" : result.changed().toString());
        var problem = result.refused().isEmpty() ? null : "Not DEAD events, left alone: " + result.refused();
        return Answer.html(200, templates.render("result",
                new Result(call.frame(title), text, problem, Result.EVENTS, "Back to the DEAD events")));
    }
}
