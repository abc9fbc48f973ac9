package io.msgx.runner.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.concurrent.Callable;

@Command(name = "migrate", description = "Create or upgrade the store's schema (Flyway); a no-op when current.")
final class MigrateCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (var exchange = config.open()) {
            int applied = exchange.migrate();
            spec.commandLine().getOut().println(applied == 0 ? "Schema " + exchange.config().store().schema()
                    + " is current." : "Applied " + applied + " migration(s) to schema " + exchange.config().store().schema() + ".");
            return 0;
        }
    }
}
