package io.msgx.domain.message;

/** The schedule subtypes ({@code SCHD} {@code STYP}). */
public enum ScheduleKind {
    /** The daily schedule package. */
    DNLD,
    /** The answer to our schedule request ({@code RQFD}); same body and rules as {@link #DNLD}. */
    RESP,
    /** One flight added after the daily plan; set-only. */
    ADFT;

    /** DNLD and RESP are full packages validated whole; ADFT is one set-only record. */
    public boolean isPackage() {
        return this != ADFT;
    }
}
