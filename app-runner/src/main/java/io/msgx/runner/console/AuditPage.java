package io.msgx.runner.console;

import io.msgx.pipeline.audit.AuditAction;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.runner.operations.OperatorActions;

import java.util.Arrays;
import java.util.List;

/**
 * {@code /console/audit?operator=&action=&since=&limit=}: the operator audit trail (issue 36, D-137), newest first —
 * who did what, when, from where, on which items, and what came of it — filtered as the CLI's {@code audit} filters.
 * Read-only: nothing here changes anything, and every value is escaped like any other page's.
 */
final class AuditPage {

    /** The rows a page shows when no limit is asked for. */
    static final int DEFAULT_LIMIT = 200;

    /**
     * What {@code audit.jte} shows: the rows, the filter as asked (to fill the form again), the action codes to pick
     * from, and a problem with the filter (then no rows).
     */
    record Model(Frame frame, List<OperatorAudit.Stored> rows, String since, String operator, String action, int limit,
                 List<String> actions, String problem) {
    }

    private final OperatorActions operator;
    private final Templates templates;

    AuditPage(OperatorActions operator, Templates templates) {
        this.operator = operator;
        this.templates = templates;
    }

    Answer page(Call call) {
        var params = call.params();
        var since = blankAsNull(params.get("since"));
        var who = blankAsNull(params.get("operator"));
        var action = blankAsNull(params.get("action"));
        var actions = Arrays.stream(AuditAction.values()).map(AuditAction::code).toList();
        int limit = DEFAULT_LIMIT;
        String problem = null;
        List<OperatorAudit.Stored> rows = List.of();
        try {
            var asked = params.get("limit");
            if (asked != null && !asked.isBlank()) {
                limit = Integer.parseInt(asked.strip());
                if (limit < 1 || limit > Console.LIST_LIMIT) {
                    throw new NumberFormatException();
                }
            }
            rows = operator.auditTrail(new OperatorAudit.Filter(operator.auditSince(since), who, action, limit));
        } catch (NumberFormatException e) {
            problem = "The limit is a number from 1 to " + Console.LIST_LIMIT + ".";
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        return Answer.html(problem == null ? 200 : 400, templates.render("audit",
                new Model(call.frame("Audit trail"), rows, since, who, action, limit, actions, problem)));
    }

    private static String blankAsNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
