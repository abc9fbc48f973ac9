package io.msgx.runner.cli;

import io.msgx.runner.embed.MsgExchange;
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
    static final class Abandoned extends StoreCommand {

        @Option(names = "--limit", defaultValue = "100")
        int limit;

        @Override
        int run(MsgExchange exchange) {
            return answer.printList("abandoned", exchange.store().backfillMarks().abandonedMarks(limit),
                    mark -> JsonOutput.object("msgId", mark.record().msgId(), "state", mark.record().status(),
                            "reason", mark.record().backfillAbandonedReason(),
                            "abandonedAt", mark.record().backfillAbandonedAt(), "reconciledAt", mark.reconciledAt(),
                            "reconciledBy", mark.reconciledBy(), "note", mark.note()),
                    mark -> String.format("%d  %s  %s  abandoned %s  %s", mark.record().msgId(),
                            mark.record().status(), mark.record().backfillAbandonedReason(),
                            mark.record().backfillAbandonedAt(), mark.reconciledAt() == null ? "not reconciled"
                                    : "reconciled by " + mark.reconciledBy() + " at " + mark.reconciledAt()));
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
