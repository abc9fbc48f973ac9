package io.msgx.runner.cli;

import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Command;

import java.util.Map;


@Command(name = "migrate", description = "Create or upgrade the store's schema (Flyway on PostgreSQL, versioned DDL scripts on Oracle);"
        + " a no-op when current.")
final class MigrateCommand extends StoreCommand {

    @Override
    int run(MsgExchange exchange) {
        int applied = exchange.migrate();
        var where = exchange.storeDescription();
        return answer.print(Map.of("applied", applied, "store", where), applied == 0 ? where + " is current."
                : "Applied " + applied + " migration(s) to " + where + ".");
    }
}
