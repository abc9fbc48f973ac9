package io.msgx.pipeline.store;

/** The repositories bound to one open transaction; valid only inside {@link PipelineStore.TransactionWork}. */
public interface PipelineTransaction {

    ProcStates procStates();

    InboxCursors inboxCursor();

    FlightStore flights();

    Outbox outbox();

    /** Flight history cleanup; use only inside a locked transaction. */
    FlightHistory flightHistory();

    /** Reference data ({@code REF_MASTER}), written by reference answers in their business transaction. */
    ReferenceData referenceData();

    /** Our requests to the AODB side ({@code REQ_TRACK}), registered and advanced in the business transaction. */
    RequestTrack requests();
}
