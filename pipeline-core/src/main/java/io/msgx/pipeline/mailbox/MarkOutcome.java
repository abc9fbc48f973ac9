package io.msgx.pipeline.mailbox;

/** The three outcomes of writing the processing mark (sis-format §1). */
public enum MarkOutcome {
    /** The mark was empty and is now written. */
    WRITTEN,
    /** The row was already marked; the old value is kept. A success. */
    ALREADY_MARKED,
    /** No row has that ID: it was deleted after it was enqueued. Not retried. */
    MISSING_ROW
}
