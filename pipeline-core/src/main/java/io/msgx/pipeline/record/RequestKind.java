package io.msgx.pipeline.record;

/** What we asked the AODB side for (sis-format §6). */
public enum RequestKind {

    /** A schedule request ({@code TYPE=RQFD}) for a window; answered by {@code SCHD/RESP}. */
    SCHEDULE,

    /** A reference request ({@code TYPE=RQRD}, {@code STYP}/{@code RTYP} = the reference type). */
    REFERENCE;

    /** The {@code REQ_TRACK.REQ_TYPE} of every schedule request. */
    public static final String SCHEDULE_TYPE = "RQFD";

    /**
     * The request type of the "one open request" key ({@code REQ_TRACK.REQ_TYPE}): {@value #SCHEDULE_TYPE} for a
     * schedule request, the reference type ({@code subject}) for a reference request.
     */
    public String typeKey(String subject) {
        return this == SCHEDULE ? SCHEDULE_TYPE : subject;
    }
}
