package io.msgx.runner.cli;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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
                var json = new OperatorActions(exchange).flight(id)
                        .map(view -> new FlightEventJson(exchange.config().engine().operationDayRule().airportZone())
                                .state(view.flight(), view.mafl(), null, exchange.clock().instant()))
                        .orElse(null);
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
