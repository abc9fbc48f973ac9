package io.msgx.runner.cli;

import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;

@Command(name = "replay", description = {"Move FAILED/DEAD messages of a replayable error class back to PENDING.",
        "A replay does not restore history order: later messages may already have been applied."})
final class ReplayCommand extends StoreCommand {

    @Parameters(paramLabel = "ID", arity = "0..*", description = "Mailbox IDs to replay.")
    List<Long> ids;

    @Option(names = "--class", paramLabel = "CLASS", description = {"Instead of IDs: the DEAD messages of this error "
            + "class among the oldest " + OperatorActions.OLDEST_DEAD_SCANNED + " DEAD ones, as the console's DEAD page replays them",
            "(only a class in msgx.replay.error-classes)."})
    ErrorClass errorClass;

    @Mixin
    OperatorOption operator;

    @Override
    Integer refuseArguments() {
        if ((ids == null || ids.isEmpty()) == (errorClass == null)) {
            return answer.refuse(Main.USAGE, "Give mailbox IDs or --class CLASS, one of the two.");
        }
        return null;
    }

    @Override
    int run(MsgExchange exchange) {
        ReplayService.Replay result;
        try {
            result = errorClass == null ? new OperatorActions(exchange).replay(ids, operator.actor())
                    : new OperatorActions(exchange).replayClass(errorClass, OperatorActions.OLDEST_DEAD_SCANNED,
                    operator.actor());
        } catch (IllegalArgumentException e) {
            return answer.refuse(Main.REFUSED, e.getMessage());
        }
        answer.print(Map.of("replayed", result.replayed(), "refused", result.refused()),
                "Replayed " + result.replayed() + "; not replayable " + result.refused());
        return result.refused().isEmpty() ? 0 : Main.REFUSED;
    }
}
