package io.msgx.pipeline.record;

/**
 * Why a message failed or died ({@code PROC_STATE.ERROR_CLASS}). Whether a class is retried is a property
 * of the class, fixed here and listed in docs/reference.md.
 */
public enum ErrorClass {
    /** Not well-formed, missing META, wrong META time, or the raw text is gone. Dead at once. */
    MALFORMED(false),
    /** Well-formed but breaks a protocol rule (RECS, FLID, operation day). Dead at once, nothing applied. */
    PROTOCOL(false),
    /** Retries used up; the original class is overwritten, {@code LAST_ERROR} keeps the text. */
    EXHAUSTED(false),
    /** A database or mailbox could not be reached. Retried with backoff. */
    INFRA(true),
    /** A defect of ours in decoding a message a fixed codec could read. Retried with backoff. */
    CODEC_ERROR(true),
    /** A message type no processor handles yet. Retried with backoff, then dead. */
    UNSUPPORTED(true),
    /** Any other unexpected failure while processing. Retried with backoff. */
    INTERNAL(true);

    private final boolean retried;

    ErrorClass(boolean retried) {
        this.retried = retried;
    }

    public boolean retried() {
        return retried;
    }
}
