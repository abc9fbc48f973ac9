package io.msgx.pipeline.port;

/**
 * The store's ports by capability, one accessor each: the one list of what the pipeline may ask of its database.
 * {@link PipelineStore} hands them out auto-committed (each call its own statement, or one short transaction where a
 * port says so); {@link PipelineTransaction} hands out the same ports bound to one open business transaction.
 */
public interface StorePorts {

    // --- PROC_STATE: the processing record of every enqueued mailbox message ---

    /** The FIFO queue: enqueueing, the head, the run a group may take, and ending or failing a message. */
    MessageQueue queue();

    /** Binding messages to their business identities (outside any business transaction), and look-ups by identity. */
    IdentityRegister identities();

    /** The processed marks owed to the shared mailbox. */
    BackfillMarks backfillMarks();

    /** Operators' replays. */
    MessageReplays replays();

    /** The archive of settled records and their dedup shadows. */
    MessageArchive messageArchive();

    /** Listings and backlog counts. */
    MessageQueries messageQueries();

    // --- MSG_EVENT: the outbox for delivery ---

    /** {@code KAFKA:msg} notifications: claims and confirmations. */
    Notifications notifications();

    /** {@code KAFKA:schd} projections: claims, confirmations and re-arming. */
    Projections projections();

    /** {@code KAFKA:ref} reference rows: claims and confirmations. */
    ReferenceNotifications referenceNotifications();

    /** Failed deliveries and the dead-letter queue. */
    DeadLetters deadLetters();

    /** Deleting delivered rows. */
    OutboxCleanup outboxCleanup();

    /** Undelivered rows, due retries and the delivery gauges' counts. */
    OutboxQueries outboxQueries();

    // --- the rest ---

    /** Operators' look-ups of flights by number. */
    FlightQueries flightQueries();

    /** The inbox cursor ({@code INBOX_CURSOR}). */
    InboxCursors inboxCursor();

    /** Reference data ({@code REF_MASTER}); written only inside a business transaction. */
    ReferenceData referenceData();

    /**
     * Our requests to the AODB side ({@code REQ_TRACK}). Auto-committed, {@link RequestTrack#register} (expire the old
     * open request, insert the new one) runs as one short transaction of its own.
     */
    RequestTrack requests();

    /**
     * The operator audit trail ({@code OPERATOR_AUDIT}, D-137): appended in the transaction of the action it records
     * ({@link PipelineTransaction#operatorAudit()}); auto-committed, the row of a refused action and the listings.
     */
    OperatorAudit operatorAudit();
}
