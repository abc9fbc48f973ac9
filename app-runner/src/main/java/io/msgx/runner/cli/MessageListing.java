package io.msgx.runner.cli;

import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The messages in one state, oldest mailbox ID first, as {@code dead list} and {@code failed list} print them: ID,
 * error class, attempts, when the next attempt is due (a {@code FAILED} message), when it last changed, its error.
 */
abstract class MessageListing extends StoreCommand {

    @Option(names = "--limit", defaultValue = "100", description = "At most this many (default ${DEFAULT-VALUE}).")
    int limit;

    private final ProcStatus status;
    private final String jsonKey;

    MessageListing(ProcStatus status, String jsonKey) {
        this.status = status;
        this.jsonKey = jsonKey;
    }

    @Override
    int run(MsgExchange exchange) {
        List<ProcRecord> records = exchange.store().messageQueries().withStatus(status, limit);
        return answer.printList(jsonKey, records,
                r -> JsonOutput.object("msgId", r.msgId(), "errorClass", r.errorClass(), "attempts", r.attempts(),
                        "nextAttemptAt", r.nextAttemptAt(), "reason", r.lastError(), "updatedAt", r.updatedAt()),
                r -> String.format("%d  %-11s  %d attempt(s)  %s  %s  %s", r.msgId(), r.errorClass(),
                        r.attempts(), r.nextAttemptAt() == null ? "-" : "next " + r.nextAttemptAt(), r.updatedAt(),
                        r.lastError()));
    }
}
