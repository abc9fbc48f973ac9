package io.msgx.runner.http;

import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;

import java.util.Objects;

/**
 * A database is up when one cheap read of it answers: our store ({@code INBOX_CURSOR}) and the shared mailbox (the
 * largest inbound ID). A read that fails is DOWN with what could not be read and what to look at.
 */
public final class ReadCheck implements ReadinessCheck {

    public static final String STORE = "store";
    public static final String MAILBOX = "mailbox";

    private final String name;
    private final Runnable read;
    private final String whatFailed;
    private final String whatToCheck;

    private ReadCheck(String name, Runnable read, String whatFailed, String whatToCheck) {
        this.name = name;
        this.read = read;
        this.whatFailed = whatFailed;
        this.whatToCheck = whatToCheck;
    }

    /** Our database answers: {@code INBOX_CURSOR} can be read ({@code store.inboxCursor().load()}). */
    public static ReadCheck store(PipelineStore store) {
        Objects.requireNonNull(store, "store");
        return new ReadCheck(STORE, () -> store.inboxCursor().load(), "the pipeline store cannot read INBOX_CURSOR",
                "check the database connection settings and that the database is up and migrated");
    }

    /** The shared mailbox answers: the largest inbound ID can be read ({@code mailbox.maxId()}). */
    public static ReadCheck mailbox(Mailbox mailbox) {
        Objects.requireNonNull(mailbox, "mailbox");
        return new ReadCheck(MAILBOX, mailbox::maxId, "the shared mailbox (CMINMSGS) cannot be read",
                "check the mailbox connection settings and that the AODB side's database is up");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Result check() {
        try {
            read.run();
            return Result.up();
        } catch (RuntimeException e) {
            return Result.down(whatFailed + ": " + e.getMessage() + "; " + whatToCheck);
        }
    }
}
