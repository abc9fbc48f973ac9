package io.msgx.runner.cli;

import io.msgx.pipeline.store.Request;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.concurrent.Callable;

@Command(name = "request", description = "Ask the AODB side for data (written to COUTMSGS).",
        subcommands = {RequestCommand.Schedule.class, RequestCommand.Reference.class})
final class RequestCommand {

    @Command(name = "schedule", description = "Ask for the schedule of one operation day (RQFD).")
    static final class Schedule implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(names = "--day", required = true, description = "The operation day, yyyy-MM-dd.")
        LocalDate day;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                return print(spec, json, new OperatorActions(exchange).requestSchedule(day, operator(), "cli").orElse(null));
            }
        }
    }

    @Command(name = "reference", description = "Ask for one reference type's data (RQRD), e.g. GLST (sis-format §6).")
    static final class Reference implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(names = "--type", required = true)
        String type;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                return print(spec, json, new OperatorActions(exchange).requestReference(type, operator(), "cli").orElse(null));
            }
        }
    }

    /** Who asks, for the audit line: the command has no --operator, so the account it runs under. */
    private static String operator() {
        return System.getProperty("user.name", "?");
    }

    private static int print(CommandSpec spec, boolean json, Request request) {
        if (request == null) {
            spec.commandLine().getErr().println("Refused: this is a shadow deployment (msgx.mailbox.read-only=true); "
                    + "it never writes requests to the mailbox.");
            return Main.REFUSED;
        }
        var map = new LinkedHashMap<String, Object>();
        map.put("requestId", request.id());
        map.put("kind", request.kind());
        map.put("subject", request.subject());
        map.put("coverDay", request.coverDay());
        map.put("status", request.status());
        map.put("seqn", request.seqn());
        map.put("outMsgId", request.outMsgId());
        if (json) {
            JsonOutput.print(spec.commandLine().getOut(), map);
        } else {
            map.forEach((k, v) -> spec.commandLine().getOut().printf("%-12s %s%n", k, v == null ? "-" : v));
            spec.commandLine().getOut().flush();
        }
        return 0;
    }
}
