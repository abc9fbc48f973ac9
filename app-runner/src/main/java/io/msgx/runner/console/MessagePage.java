package io.msgx.runner.console;

import io.msgx.pipeline.mailbox.AcceptedStatuses;
import io.msgx.pipeline.mailbox.MailboxContent;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code /console/message?id=|identity=}: one message's record, what it duplicates, its replay form (CLM-3), its
 * abandoned mark, its raw XML and what the model does not map (D-65); and the {@code replay} action.
 */
final class MessagePage extends ActionPage {

    /** A duplicate's reason: {@code duplicate-of:<holder>}, with {@code :content-differs} when its content differs. */
    private static final Pattern DUPLICATE_OF = Pattern.compile("duplicate-of:(\\d+)(:content-differs)?");

    /**
     * What {@code message.jte} shows; {@code record} null when none was asked for or found; {@code notAMessage} the
     * mailbox status of a row skipped for it ({@code SKIPPED(status:<value>)}, D-110), else null.
     */
    record Model(Frame frame, String id, String identity, String problem, ProcRecord record, Duplicate duplicate,
                 Replay replay, Raw raw, String notAMessage) {
    }

    /** The message is a duplicate of {@code holder}'s identity; {@code contentDiffers} for a corrected resend (Q15). */
    record Duplicate(String holder, boolean contentDiffers) {
    }

    /** A FAILED or DEAD message's replay: offered when its class is {@code replayable}, else why not. */
    record Replay(boolean offered, String replayableClasses) {
    }

    /**
     * The raw XML, indented (null when gone), where it was read, what it carries unmapped, and the row's mailbox status
     * ({@code CMINMSGS_STATUS} as the row holds it now; null when NULL, gone, or not read).
     */
    record Raw(String source, String xml, List<String> unmapped, String status) {
    }

    /** What {@code replayed.jte} shows after a replay. */
    record Replayed(Frame frame, List<Long> replayed, List<Long> refused) {
    }

    MessagePage(MsgExchange exchange, OperatorActions operator, Templates templates) {
        super(exchange, operator, templates);
    }

    Answer page(Call call) {
        var query = call.params();
        Optional<ProcRecord> found = Optional.empty();
        String problem = null;
        if (query.get("id") != null) {
            try {
                found = exchange.store().queue().find(Long.parseLong(query.get("id")));
            } catch (NumberFormatException e) {
                problem = "Not a mailbox ID: " + query.get("id");
            }
            if (problem == null && found.isEmpty()) {
                problem = "Message " + query.get("id") + " is not enqueued (no PROC_STATE row).";
            }
        } else if (query.get("identity") != null) {
            found = exchange.store().identities().findByIdentity(query.get("identity"));
            if (found.isEmpty()) {
                problem = "No message holds the identity " + query.get("identity") + ".";
            }
        }
        var record = found.orElse(null);
        var model = new Model(call.frame("Message"), orEmpty(query.get("id")), orEmpty(query.get("identity")), problem,
                record, record == null ? null : duplicate(record), record == null ? null : replay(record),
                record == null ? null : raw(record.msgId()), record == null ? null : notAMessage(record));
        return Answer.html(problem != null && record == null ? 404 : 200, templates.render("message", model));
    }

    /** The {@code replay} action: the messages named, confirmed by the operator, back to PENDING. */
    Answer replay(Call call) {
        requireConfirmed(call.params());
        var ids = call.params().ids("ids");
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No message named");
        }
        return replayed(templates, call, operator.replay(ids, call.actor()));
    }

    /** A replay's answer, from this page or the DEAD list's. */
    static Answer replayed(Templates templates, Call call, io.msgx.pipeline.lifecycle.ReplayService.Replay result) {
        return Answer.html(200, templates.render("replayed",
                new Replayed(call.frame("Replay"), result.replayed(), result.refused())));
    }

    static void requireConfirmed(Form form) {
        if (!"yes".equals(form.get("confirm"))) {
            throw new IllegalArgumentException("Replay needs the confirmation that you checked what it overwrites");
        }
    }

    private static Duplicate duplicate(ProcRecord r) {
        var duplicate = DUPLICATE_OF.matcher(r.lastError() == null ? "" : r.lastError());
        if (r.status() != ProcStatus.SKIPPED || !duplicate.matches()) {
            return null;
        }
        return new Duplicate(duplicate.group(1), duplicate.group(2) != null);
    }

    private static String notAMessage(ProcRecord r) {
        var reason = r.lastError() == null ? "" : r.lastError();
        return r.status() == ProcStatus.SKIPPED && reason.startsWith(AcceptedStatuses.SKIP_PREFIX)
                ? reason.substring(AcceptedStatuses.SKIP_PREFIX.length()) : null;
    }

    private Replay replay(ProcRecord r) {
        if (r.status() != ProcStatus.DEAD && r.status() != ProcStatus.FAILED) {
            return null;
        }
        var replayable = exchange.config().replayable();
        return new Replay(r.errorClass() != null && replayable.contains(r.errorClass()), replayable.toString());
    }

    private Raw raw(long msgId) {
        String raw = null;
        String status = null;
        String source = "the mailbox (CMINMSGS)";
        try {
            var content = exchange.mailbox().readContent(msgId);
            raw = content.map(MailboxContent::text).orElse(null);
            status = content.map(MailboxContent::status).orElse(null);
        } catch (RuntimeException e) {
            source = "the mailbox is unreachable (" + e.getClass().getSimpleName() + ")";
        }
        if (raw == null) {
            try {
                var copy = exchange.store().rawCopies().find(msgId);
                if (copy.isPresent()) {
                    raw = copy.get();
                    source = "the replay channel's copy";
                }
            } catch (RuntimeException e) {
                // no replay channel on this store: nothing more to show
            }
        }
        if (raw == null) {
            return new Raw(source, null, List.of(), status);
        }
        return new Raw(source, XmlPretty.indent(raw), exchange.codec().unmappedIn(raw), status);
    }

    static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
