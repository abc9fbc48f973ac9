package io.msgx.pipeline.mailbox;

/**
 * The mailbox could not be read or written: connection refused, timeout, SQL error. An infrastructure
 * failure, retried by whoever called; never to be mistaken for an empty answer.
 */
public class MailboxUnavailableException extends RuntimeException {

    public MailboxUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
