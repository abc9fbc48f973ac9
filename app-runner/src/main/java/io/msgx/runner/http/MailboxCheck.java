package io.msgx.runner.http;

import io.msgx.pipeline.port.Mailbox;

import java.util.Objects;

/** The shared mailbox answers: the largest inbound ID can be read ({@code mailbox.maxId()}). */
public final class MailboxCheck implements ReadinessCheck {

    public static final String NAME = "mailbox";

    private final Mailbox mailbox;

    public MailboxCheck(Mailbox mailbox) {
        this.mailbox = Objects.requireNonNull(mailbox, "mailbox");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check() {
        try {
            mailbox.maxId();
            return Result.up();
        } catch (RuntimeException e) {
            return Result.down("the shared mailbox (CMINMSGS) cannot be read: " + e.getMessage()
                    + "; check the mailbox connection settings and that the AODB side's database is up");
        }
    }
}
