package io.msgx.pipeline.mailbox;

import java.util.Objects;

/**
 * What one inbound row holds for processing, read in one statement: its XML text and its mailbox status
 * ({@code CMINMSGS_STATUS}, sis-format §10), as the AODB side wrote them. The status is read, never written by us.
 *
 * @param text   the message text; a row whose text is SQL NULL (the schema forbids it) reads as the empty string
 * @param status the status as stored, untrimmed; null when the column is NULL (which counts as accepted), or when the
 *               mailbox was told not to read the column (the status check is off, D-110)
 */
public record MailboxContent(String text, String status) {

    public MailboxContent {
        Objects.requireNonNull(text, "text");
    }
}
