package io.msgx.runner.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "migrate", description = "Create or upgrade the store's schema (Flyway on PostgreSQL, versioned DDL scripts on Oracle);"
        + " a no-op when current.")
final class MigrateCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (var exchange = config.open()) {
            int applied = exchange.migrate();
            var where = exchange.storeDescription();
            spec.commandLine().getOut().println(applied == 0 ? where + " is current."
                    : "Applied " + applied + " migration(s) to " + where + ".");
            return 0;
        }
    }
}
