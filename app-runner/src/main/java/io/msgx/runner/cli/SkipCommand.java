package io.msgx.runner.cli;

import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "skip", description = {"An operator decides an open message will not be processed (seeds §5.4).",
        "It ends SKIPPED with the reason, who and when, and is marked in the mailbox like any terminal message."})
final class SkipCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(paramLabel = "ID")
    long id;

    @Option(names = "--reason", required = true)
    String reason;

    @Mixin
    OperatorOption operator;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (var exchange = config.open()) {
            var skipped = new OperatorActions(exchange).skip(id, reason, operator.actor());
            if (skipped.isEmpty()) {
                spec.commandLine().getErr().println("Message " + id + " is not open (or not enqueued): nothing skipped.");
                return Main.REFUSED;
            }
            var terminal = skipped.get();
            if (json) {
                JsonOutput.print(spec.commandLine().getOut(),
                        java.util.Map.of("msgId", id, "state", "SKIPPED", "reason", terminal.reason()));
            } else {
                spec.commandLine().getOut().println("Message " + id + " SKIPPED: " + terminal.reason());
            }
            return 0;
        }
    }
}
