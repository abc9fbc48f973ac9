package io.msgx.runner.cli;

import io.msgx.pipeline.inbox.CutoverSeeding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "seed", description = "Cut-over: set where a brand-new instance starts reading (min, zero, max or an ID).")
final class SeedCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(paramLabel = "WHERE", description = "min | zero | max | <mailbox ID>")
    String where;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (var exchange = config.open()) {
            try {
                var outcome = new CutoverSeeding(exchange.mailbox(), exchange.store().inboxCursor(), exchange.clock())
                        .seed(where);
                if (json) {
                    boolean seeded = outcome instanceof CutoverSeeding.Outcome.Seeded;
                    JsonOutput.print(spec.commandLine().getOut(),
                            java.util.Map.of("seeded", seeded, "watermark", outcome.watermark()));
                } else {
                    spec.commandLine().getOut().println(outcome);
                }
                return 0;
            } catch (IllegalStateException e) {
                spec.commandLine().getErr().println(e.getMessage());
                return Main.REFUSED;
            }
        }
    }
}
