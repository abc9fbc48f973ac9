package io.msgx.runner.cli;

import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.List;

@Command(name = "message", description = "Inspect one inbound message.", subcommands = MessageCommand.Show.class)
final class MessageCommand {

    @Command(name = "show", description = "State, attempts, error, identity, backfill facts, the mailbox status, what the model does not map; --raw adds the XML.")
    static final class Show extends StoreCommand {

        @Parameters(paramLabel = "ID", description = "The mailbox ID (CMINMSGS_ID).")
        long id;

        @Option(names = "--raw", description = "Also print the raw XML from the mailbox.")
        boolean raw;

        @Override
        int run(MsgExchange exchange) {
            var found = exchange.store().queue().find(id);
            if (found.isEmpty()) {
                return answer.refuse(Main.NOT_FOUND, "Message " + id + " is not enqueued (no PROC_STATE row).");
            }
            var r = found.get();
            var map = new LinkedHashMap<String, Object>();
            map.put("msgId", r.msgId());
            map.put("state", r.status());
            map.put("errorClass", r.errorClass());
            map.put("reason", r.lastError());
            map.put("attempts", r.attempts());
            map.put("nextAttemptAt", r.nextAttemptAt());
            map.put("identity", r.identityKey());
            map.put("receivedAt", r.receivedAt());
            map.put("enqueuedAt", r.enqueuedAt());
            map.put("updatedAt", r.updatedAt());
            map.put("backfillNextAt", r.backfillNextAt());
            map.put("backfillAt", r.backfillAt());
            map.put("backfillAttempts", r.backfillAttempts());
            map.put("backfillFailingSince", r.backfillFailingSince());
            map.put("backfillAbandonedAt", r.backfillAbandonedAt());
            map.put("backfillAbandonedReason", r.backfillAbandonedReason());
            var content = exchange.mailbox().readContent(id);
            var text = content.map(io.msgx.pipeline.mailbox.MailboxContent::text);
            // CMINMSGS_STATUS as the row holds it now (null: NULL, the row gone, or the status check off, D-110)
            map.put("mailboxStatus", content.map(io.msgx.pipeline.mailbox.MailboxContent::status).orElse(null));
            map.put("unmapped", text.map(exchange.codec()::unmappedIn).orElse(List.of()));
            if (raw) {
                map.put("raw", text.orElse(null));
            }
            return answer.printFields(map, 24);
        }
    }
}
