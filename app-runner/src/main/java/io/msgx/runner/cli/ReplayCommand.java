package io.msgx.runner.cli;

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

    @Parameters(paramLabel = "ID", arity = "1..*", description = "Mailbox IDs to replay.")
    List<Long> ids;

    @Mixin
    OperatorOption operator;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (var exchange = config.open()) {
            var result = new OperatorActions(exchange).replay(ids, operator.actor());
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
