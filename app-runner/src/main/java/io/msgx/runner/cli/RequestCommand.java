package io.msgx.runner.cli;

import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.request.ScheduleWindow;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.LocalDate;
import java.time.LocalDateTime;

@Command(name = "request", description = "Ask the AODB side for data (written to COUTMSGS).",
        subcommands = {RequestCommand.Schedule.class, RequestCommand.Reference.class})
final class RequestCommand {

    @Command(name = "schedule", description = "Ask for the schedule of one operation day, or of a window that may be "
            + "open at one end (RQFD).")
    static final class Schedule extends StoreCommand {

        @Option(names = "--day", description = "The operation day, yyyy-MM-dd: its whole window (STDB and STDE).")
        LocalDate day;

        @Option(names = "--from", description = "Instead of --day: the window's start (STDB), airport local time, "
                + "yyyy-MM-ddTHH:mm. Without --to the window is open at the end (no STDE).")
        LocalDateTime from;

        @Option(names = "--to", description = "Instead of --day: the window's end (STDE), airport local time, "
                + "yyyy-MM-ddTHH:mm. Without --from the window is open at the start (no STDB).")
        LocalDateTime to;

        /** The window asked for, or null for a whole --day. */
        private ScheduleWindow window;

        @Override
        Integer refuseArguments() {
            if ((day == null) == (from == null && to == null)) {
                return answer.refuse(Main.USAGE, "Give either --day, or --from and/or --to (a window open at one end"
                        + " when only one is given).");
            }
            if (day == null) {
                try {
                    window = new ScheduleWindow(from, to);
                } catch (IllegalArgumentException e) {
                    return answer.refuse(Main.USAGE, e.getMessage());
                }
            }
            return null;
        }

        @Override
        int run(MsgExchange exchange) {
            var actions = new OperatorActions(exchange);
            return print(answer, (window == null ? actions.requestSchedule(day, OperatorOption.osUser())
                    : actions.requestSchedule(window, OperatorOption.osUser())).orElse(null));
        }
    }

    @Command(name = "reference", description = "Ask for one reference type's data (RQRD), e.g. GLST (sis-format §6).")
    static final class Reference extends StoreCommand {

        @Option(names = "--type", required = true)
        String type;

        @Override
        int run(MsgExchange exchange) {
            return print(answer, new OperatorActions(exchange).requestReference(type, OperatorOption.osUser()).orElse(null));
        }
    }

    private static int print(CommandAnswer answer, Request request) {
        if (request == null) {
            return answer.refuse(Main.REFUSED, "Refused: this is a shadow deployment (msgx.mailbox.read-only=true); "
                    + "it never writes requests to the mailbox.");
        }
        return answer.printFields(JsonOutput.object("requestId", request.id(), "kind", request.kind(),
                "subject", request.subject(), "coverDay", request.coverDay(), "windowStart", request.windowStart(),
                "windowEnd", request.windowEnd(), "status", request.status(), "seqn", request.seqn(),
                "outMsgId", request.outMsgId()), 12);
    }
}
