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

@Command(name = "backfill", description = "Abandoned mailbox marks: list, reopen, reconcile.",
        subcommands = {BackfillCommand.Abandoned.class, BackfillCommand.Reopen.class, BackfillCommand.Reconcile.class})
final class BackfillCommand {

    @Command(name = "abandoned", description = "List abandoned marks for reconciliation.")
    static final class Abandoned implements Callable<Integer> {
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
            try (var exchange = config.open()) {
                var out = spec.commandLine().getOut();
                var marks = exchange.store().backfillMarks().abandonedMarks(limit);
                if (json) {
                    var rows = new java.util.ArrayList<java.util.Map<String, Object>>();
                    for (var mark : marks) {
                        var row = new java.util.LinkedHashMap<String, Object>();
                        row.put("msgId", mark.record().msgId());
                        row.put("state", mark.record().status());
                        row.put("reason", mark.record().backfillAbandonedReason());
                        row.put("abandonedAt", mark.record().backfillAbandonedAt());
                        row.put("reconciledAt", mark.reconciledAt());
                        row.put("reconciledBy", mark.reconciledBy());
                        row.put("note", mark.note());
                        rows.add(row);
                    }
                    JsonOutput.print(out, java.util.Map.of("abandoned", rows));
                    return 0;
                }
                for (var mark : marks) {
                    out.printf("%d  %s  %s  abandoned %s  %s%n", mark.record().msgId(), mark.record().status(),
                            mark.record().backfillAbandonedReason(), mark.record().backfillAbandonedAt(),
                            mark.reconciledAt() == null ? "not reconciled"
                                    : "reconciled by " + mark.reconciledBy() + " at " + mark.reconciledAt());
                }
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "reopen", description = "Reopen abandoned marks: retried at once.")
    static final class Reopen implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "ID", arity = "1..*")
        List<Long> ids;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                var reopened = new OperatorActions(exchange).reopen(ids, OperatorOption.osUser());
                spec.commandLine().getOut().println("Reopened " + reopened);
                return reopened.size() == ids.size() ? 0 : Main.REFUSED;
            }
        }
    }

    @Command(name = "reconcile", description = "Record that an abandoned mark was settled by hand (lets it be archived).")
    static final class Reconcile implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "ID")
        long id;

        @Mixin
        OperatorOption operator;

        @Option(names = "--note", required = true)
        String note;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                if (!new OperatorActions(exchange).reconcile(id, note, operator.actor())) {
                    spec.commandLine().getErr().println("Message " + id + " has no abandoned mark.");
                    return Main.REFUSED;
                }
                spec.commandLine().getOut().println("Reconciled " + id + " by " + operator.name);
                return 0;
            }
        }
    }
}
