package io.msgx.runner.cli;

import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "replay", description = {"Move FAILED/DEAD messages of a replayable error class back to PENDING.",
        "A replay does not restore history order: later messages may already have been applied."})
final class ReplayCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(paramLabel = "ID", arity = "0..*", description = "Mailbox IDs to replay.")
    List<Long> ids;

    @Option(names = "--class", paramLabel = "CLASS", description = {"Instead of IDs: the DEAD messages of this error "
            + "class among the oldest " + OperatorActions.OLDEST_DEAD_SCANNED + " DEAD ones, as the console's DEAD page replays them",
            "(only a class in msgx.replay.error-classes)."})
    ErrorClass errorClass;

    @Mixin
    OperatorOption operator;

    @Mixin
    CommandAnswer answer;

    @Override
    public Integer call() {
        if ((ids == null || ids.isEmpty()) == (errorClass == null)) {
            return answer.refuse(Main.USAGE, "Give mailbox IDs or --class CLASS, one of the two.");
        }
        try (var exchange = config.open()) {
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
}
