package io.msgx.runner.cli;

import io.msgx.pipeline.lifecycle.ReplayService;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
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

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if ((ids == null || ids.isEmpty()) == (errorClass == null)) {
            spec.commandLine().getErr().println("Give mailbox IDs or --class CLASS, one of the two.");
            return Main.USAGE;
        }
        try (var exchange = config.open()) {
            ReplayService.Replay result;
            try {
                result = errorClass == null ? new OperatorActions(exchange).replay(ids, operator.actor())
                        : new OperatorActions(exchange).replayClass(errorClass, OperatorActions.OLDEST_DEAD_SCANNED,
                        operator.actor());
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println(e.getMessage());
                return Main.REFUSED;
            }
            if (json) {
                JsonOutput.print(spec.commandLine().getOut(),
                        java.util.Map.of("replayed", result.replayed(), "refused", result.refused()));
            } else {
                spec.commandLine().getOut().println("Replayed " + result.replayed() + "; not replayable " + result.refused());
            }
            return result.refused().isEmpty() ? 0 : Main.REFUSED;
        }
    }
}
