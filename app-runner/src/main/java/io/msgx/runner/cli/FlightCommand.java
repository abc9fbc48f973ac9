package io.msgx.runner.cli;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.pipeline.event.FlightEventJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "flight", description = "Inspect one flight.", subcommands = FlightCommand.Show.class)
final class FlightCommand {

    @Command(name = "show", description = "The flight's current state as published: fields, lists, MAFL, version.")
    static final class Show implements Callable<Integer> {

        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "FLID")
        String flid;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                var id = FlightId.of(flid);
                var json = exchange.store().inTransaction(tx -> {
                    var found = tx.flights().find(List.of(id));
                    if (found.isEmpty()) {
                        return null;
                    }
                    var flight = found.get(0);
                    var mafl = flight.isActive() && flight.carriesMafl()
                            ? MaflProjection.of(id, tx.flights().findChildrenOf(List.of(id))) : null;
                    return new FlightEventJson().state(flight, mafl, exchange.clock().instant());
                });
                if (json == null) {
                    spec.commandLine().getErr().println("No flight " + flid + ".");
                    return Main.NOT_FOUND;
                }
                spec.commandLine().getOut().println(json);
                return 0;
            }
        }
    }
}
