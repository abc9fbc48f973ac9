package io.msgx.runner.cli;

import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Map;

/**
 * {@code audit}: the operator audit trail ({@code OPERATOR_AUDIT}, issue 36, D-137), newest first: every operator
 * action of the console and the CLI, who did it, when, from where, on which items and what came of it. A read: it
 * records nothing itself.
 */
@Command(name = "audit", description = {"The operator audit trail, newest first: time, operator, channel, from where,",
        "action, items, outcome (DONE, PARTLY, REFUSED), what changed, what was refused, detail."})
final class AuditCommand extends StoreCommand {

    @Option(names = "--since", paramLabel = "WHEN", description = {"Only rows recorded since: an instant",
            "(2024-03-11T08:00:00Z), an airport-local time (2024-03-11T16:00), a day (2024-03-11) or a time ago",
            "(30m, 24h, 7d)."})
    String since;

    @Option(names = "--operator", paramLabel = "NAME", description = "Only the rows of this operator.")
    String operator;

    @Option(names = "--action", paramLabel = "ACTION", description = {"Only this action: replay, replay-class, skip,",
            "backfill-reopen, backfill-reconcile, events-resend, events-resend-all, events-purge, events-rearm,",
            "request-schedule, request-reference."})
    String action;

    @Option(names = "--limit", defaultValue = "100", description = "At most this many (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    int run(MsgExchange exchange) {
        var actions = new OperatorActions(exchange);
        OperatorAudit.Filter filter;
        try {
            filter = new OperatorAudit.Filter(actions.auditSince(since), operator, action, limit);
        } catch (IllegalArgumentException e) {
            return answer.refuse(Main.USAGE, e.getMessage());
        }
        return answer.printList("audit", actions.auditTrail(filter), AuditCommand::asJson, AuditCommand::asLine);
    }

    private static Map<String, Object> asJson(OperatorAudit.Stored row) {
        var entry = row.entry();
        var result = entry.result();
        return JsonOutput.object("id", row.id(), "at", entry.at(), "operator", entry.actor().name(),
                "channel", entry.actor().channel().code(), "source", entry.actor().source(), "action", entry.action(),
                "items", entry.items(), "outcome", result.outcome(), "changed", result.changed(),
                "refused", result.refused(), "detail", result.detail());
    }

    private static String asLine(OperatorAudit.Stored row) {
        var entry = row.entry();
        var result = entry.result();
        return String.format("%d  %s  %s  %s (%s)  %s  %s  %s%s%s%s", row.id(), entry.at(),
                oneLine(entry.actor().name()), entry.actor().channel().code(), oneLine(entry.actor().source()),
                entry.action(), oneLine(entry.items()), result.outcome(),
                result.changed() == null ? "" : "  changed: " + oneLine(result.changed()),
                result.refused() == null ? "" : "  refused: " + oneLine(result.refused()),
                result.detail() == null ? "" : "  (" + oneLine(result.detail()) + ")");
    }

    /** Stored text on one terminal line: a control character (a forged second line) becomes a blank. */
    private static String oneLine(String text) {
        return text == null ? "-" : text.replaceAll("\\p{Cntrl}", " ");
    }
}
