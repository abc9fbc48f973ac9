package io.msgx.runner.console;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /console/dead?class=}: the oldest DEAD messages, filtered by error class, with a bulk replay of a whitelisted
 * class; and the {@code replay-class} action.
 */
final class DeadPage extends ActionPage {

    /**
     * What {@code dead.jte} shows: the DEAD messages of the filter (all when null), the count of each class among all
     * listed, whether the filtered class is replayable; {@code unknownClass} alone when the filter names no class.
     */
    record Model(Frame frame, String unknownClass, ErrorClass filter, List<ProcRecord> dead, int listed,
                 Map<ErrorClass, Integer> counts, boolean replayable, String replayableClasses, int limit) {

        /** Whether the bulk replay form (or why not) is shown: a class is picked and some message has it. */
        boolean offersReplay() {
            return filter != null && counts.containsKey(filter);
        }
    }

    DeadPage(MsgExchange exchange, OperatorActions operator, Templates templates) {
        super(exchange, operator, templates);
    }

    Answer page(Call call) {
        var frame = call.frame("DEAD messages");
        var classFilter = call.params().get("class");
        ErrorClass filter = null;
        if (classFilter != null) {
            try {
                filter = ErrorClass.valueOf(classFilter.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return render(new Model(frame, classFilter, null, List.of(), 0, Map.of(), false, null, Console.LIST_LIMIT));
            }
        }
        var dead = exchange.store().messageQueries().withStatus(ProcStatus.DEAD, Console.LIST_LIMIT);
        var counts = new LinkedHashMap<ErrorClass, Integer>();
        dead.forEach(r -> counts.merge(r.errorClass(), 1, Integer::sum));
        var replayable = exchange.config().replayable();
        var picked = filter;
        var shown = filter == null ? dead : dead.stream().filter(r -> r.errorClass() == picked).toList();
        return render(new Model(frame, null, filter, shown, dead.size(), counts, filter != null && replayable.contains(filter),
                replayable.toString(), Console.LIST_LIMIT));
    }

    /** The {@code replay-class} action: the listed DEAD messages of one whitelisted class back to PENDING. */
    Answer replayClass(Call call) {
        MessagePage.requireConfirmed(call.params());
        var named = call.params().get("class");
        ErrorClass errorClass;
        try {
            errorClass = ErrorClass.valueOf(String.valueOf(named).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("No error class " + named);
        }
        return MessagePage.replayed(templates, call,
                operator.replayClass(errorClass, OperatorActions.OLDEST_DEAD_SCANNED, call.actor()));
    }

    private Answer render(Model model) {
        return Answer.html(200, templates.render("dead", model));
    }
}
