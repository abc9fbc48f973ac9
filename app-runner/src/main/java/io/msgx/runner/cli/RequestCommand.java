package io.msgx.runner.cli;

import io.msgx.pipeline.request.ScheduleWindow;
import io.msgx.pipeline.store.Request;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.concurrent.Callable;

@Command(name = "request", description = "Ask the AODB side for data (written to COUTMSGS).",
        subcommands = {RequestCommand.Schedule.class, RequestCommand.Reference.class})
final class RequestCommand {

    @Command(name = "schedule", description = "Ask for the schedule of one operation day, or of a window that may be "
            + "open at one end (RQFD).")
    static final class Schedule implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Option(names = "--day", description = "The operation day, yyyy-MM-dd: its whole window (STDB and STDE).")
        LocalDate day;

        @Option(names = "--from", description = "Instead of --day: the window's start (STDB), airport local time, "
                + "yyyy-MM-ddTHH:mm. Without --to the window is open at the end (no STDE).")
        LocalDateTime from;

        @Option(names = "--to", description = "Instead of --day: the window's end (STDE), airport local time, "
                + "yyyy-MM-ddTHH:mm. Without --from the window is open at the start (no STDB).")
        LocalDateTime to;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if ((day == null) == (from == null && to == null)) {
                spec.commandLine().getErr().println("Give either --day, or --from and/or --to (a window open at one end"
                        + " when only one is given).");
                return Main.USAGE;
            }
            ScheduleWindow window = null;
            if (day == null) {
                try {
                    window = new ScheduleWindow(from, to);
                } catch (IllegalArgumentException e) {
                    spec.commandLine().getErr().println(e.getMessage());
                    return Main.USAGE;
                }
            }
            try (var exchange = config.open()) {
                var actions = new OperatorActions(exchange);
                return print(spec, json, (window == null ? actions.requestSchedule(day, OperatorOption.osUser())
                        : actions.requestSchedule(window, OperatorOption.osUser())).orElse(null));
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
                return print(spec, json, new OperatorActions(exchange).requestReference(type, OperatorOption.osUser()).orElse(null));
            }
        }
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
        map.put("windowStart", request.windowStart());
        map.put("windowEnd", request.windowEnd());
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
