package io.msgx.pipeline.mailbox;

/**
 * One inbound row as the poller sees it: its ID ({@code MSG_ID} everywhere in our store) and the AODB side's
 * receive time, which may be null and is only ever shown, never used to decide anything.
 */
public record MailboxRow(long id, java.time.Instant receivedAt) {

    public MailboxRow {
        if (id < 1) {
            throw new IllegalArgumentException("mailbox IDs start at 1, got " + id);
        }
    }
}
