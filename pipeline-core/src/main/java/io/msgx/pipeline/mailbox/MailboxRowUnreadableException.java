package io.msgx.pipeline.mailbox;

/**
 * One mailbox row's text cannot be read while the mailbox itself answers: a failure tied to that row (a conversion
 * or charset error, a timeout reading one huge text), not an outage. Unlike {@link MailboxUnavailableException} it is
 * the message's own problem: its attempt counts, it is retried with backoff and ends {@code DEAD(EXHAUSTED)} when it
 * keeps failing, so one unreadable row never holds the FIFO for ever (seeds §5.2 step 1, D-85).
 */
public class MailboxRowUnreadableException extends RuntimeException {

    public MailboxRowUnreadableException(String message, Throwable cause) {
        super(message, cause);
    }
}
