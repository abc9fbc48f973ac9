package io.msgx.runner.cli;

import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Map;

@Command(name = "skip", description = {"An operator decides an open message will not be processed (seeds §5.4).",
        "It ends SKIPPED with the reason, who and when, and is marked in the mailbox like any terminal message."})
final class SkipCommand extends StoreCommand {

    @Parameters(paramLabel = "ID")
    long id;

    @Option(names = "--reason", required = true)
    String reason;

    @Mixin
    OperatorOption operator;

    @Override
    int run(MsgExchange exchange) {
        var skipped = new OperatorActions(exchange).skip(id, reason, operator.actor());
        if (skipped.isEmpty()) {
            return answer.refuse(Main.REFUSED, "Message " + id + " is not open (or not enqueued): nothing skipped.");
        }
        var reason = skipped.get().reason();
        return answer.print(Map.of("msgId", id, "state", "SKIPPED", "reason", reason),
                "Message " + id + " SKIPPED: " + reason);
    }
}
