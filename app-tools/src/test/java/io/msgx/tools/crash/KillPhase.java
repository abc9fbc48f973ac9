package io.msgx.tools.crash;

/**
 * What the runner had in hand when it was killed, read from the databases right at the kill. One kill usually
 * lands in several phases at once (rows still unread while a group is being processed and events wait for Kafka).
 */
public enum KillPhase {
    /** The process had not logged that its pipeline was active yet (start-up, lease, first connections). */
    STARTING,
    /** The mailbox held rows above the watermark, or the AODB side was writing rows: intake had work. */
    INTAKE,
    /** Enqueued messages were still open (PENDING or FAILED): the pump had work. */
    PROCESSING,
    /** The runner was inside a processing transaction at the kill (pg_stat_activity, read just before it). */
    IN_TRANSACTION,
    /** Outbox rows were still PENDING: the dispatcher had work. */
    DISPATCH,
    /** Terminal messages still owed their mailbox mark: the backfill had work. */
    BACKFILL,
    /** None of the above: everything was done when the kill came. */
    IDLE
}
