package io.msgx.runner.cli;

import io.msgx.pipeline.record.ProcStatus;
import picocli.CommandLine.Command;

@Command(name = "failed", description = "Messages whose last attempt failed and that wait for a retry.",
        subcommands = FailedCommand.List.class)
final class FailedCommand {

    @Command(name = "list", description = "FAILED messages, oldest first: ID, error class, attempts, next attempt, reason."
            + " The first is the FIFO head when it failed: nothing behind it moves until it is retried, skipped or DEAD.")
    static final class List extends MessageListing {
        List() {
            super(ProcStatus.FAILED, "failed");
        }
    }
}
