package io.msgx.runner.cli;

import io.msgx.pipeline.store.ProcStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "dead", description = "Messages that need an operator.", subcommands = DeadCommand.List.class)
final class DeadCommand {

    @Command(name = "list", description = "DEAD messages, oldest first: ID, error class, reason.")
    static final class List implements Callable<Integer> {

        @Mixin
        ConfigOption config;

        @Option(names = "--limit", defaultValue = "100")
        int limit;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            var out = spec.commandLine().getOut();
            try (var exchange = config.open()) {
                var dead = exchange.store().procStates().withStatus(ProcStatus.DEAD, limit);
                if (json) {
                    var rows = new ArrayList<Map<String, Object>>();
                    for (var r : dead) {
                        var row = new LinkedHashMap<String, Object>();
                        row.put("msgId", r.msgId());
                        row.put("errorClass", r.errorClass());
                        row.put("reason", r.lastError());
                        row.put("updatedAt", r.updatedAt());
                        rows.add(row);
                    }
                    JsonOutput.print(out, Map.of("dead", rows));
                } else {
                    dead.forEach(r -> out.printf("%d  %-11s  %s  %s%n", r.msgId(), r.errorClass(), r.updatedAt(),
                            r.lastError()));
                    out.flush();
                }
                return 0;
            }
        }
    }
}
