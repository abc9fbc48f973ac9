package io.msgx.runner.console;

import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;

import java.util.List;

/**
 * {@code /console/abandoned}: the mailbox marks the backfill gave up on, each with a reopen and a reconcile form; and
 * those actions.
 */
final class AbandonedPage extends ActionPage {

    /** What {@code abandoned.jte} shows: the oldest abandoned marks. */
    record Model(Frame frame, List<BackfillMarks.AbandonedMark> marks) {

        static String reconciled(BackfillMarks.AbandonedMark mark) {
            return mark.reconciledAt() == null ? "not reconciled"
                    : "by " + mark.reconciledBy() + " at " + Html.time(mark.reconciledAt()) + ": " + mark.note();
        }
    }

    /** What {@code reopened.jte} shows: the marks reopened among those asked for. */
    record Reopened(Frame frame, List<Long> asked, List<Long> reopened) {
    }

    AbandonedPage(MsgExchange exchange, OperatorActions operator, Templates templates) {
        super(exchange, operator, templates);
    }

    Answer page(Call call) {
        var marks = exchange.store().backfillMarks().abandonedMarks(Console.LIST_LIMIT);
        return Answer.html(200, templates.render("abandoned", new Model(call.frame("Abandoned mailbox marks"), marks)));
    }

    /** The marks named due again at once. */
    Answer reopen(Call call) {
        var ids = call.params().ids("ids");
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No message named");
        }
        var reopened = operator.reopen(ids, call.actor());
        return Answer.html(200, templates.render("reopened", new Reopened(call.frame("Reopen"), ids, reopened)));
    }

    /** One mark recorded as settled by hand, with the operator's note. */
    Answer reconcile(Call call) {
        var ids = call.params().ids("id");
        var note = call.params().get("note");
        if (ids.size() != 1) {
            throw new IllegalArgumentException("Name exactly one message");
        }
        if (note == null || note.length() > 500) {
            throw new IllegalArgumentException("Say how the row was settled (a note of at most 500 characters)");
        }
        long id = ids.get(0);
        var who = call.who().operator();
        boolean done = operator.reconcile(id, note, call.actor());
        var text = done ? "Reconciled " + id + " by " + who + "." : "Message " + id
                + " has no abandoned mark; nothing recorded.";
        return Answer.html(done ? 200 : 409, templates.render("result",
                new Result(call.frame("Reconcile"), text, null, Result.ABANDONED, "Back to the abandoned marks")));
    }
}
