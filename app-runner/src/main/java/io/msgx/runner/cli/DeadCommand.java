package io.msgx.runner.cli;

import io.msgx.pipeline.record.ProcStatus;
import picocli.CommandLine.Command;

@Command(name = "dead", description = "Messages that need an operator.", subcommands = DeadCommand.List.class)
final class DeadCommand {

    @Command(name = "list", description = "DEAD messages, oldest first: ID, error class, attempts, when, reason.")
    static final class List extends MessageListing {
        List() {
            super(ProcStatus.DEAD, "dead");
        }
    }
}
