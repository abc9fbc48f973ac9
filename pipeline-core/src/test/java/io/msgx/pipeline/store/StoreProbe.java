package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.store.DatabaseArchiveContract.ArchivedReconciliation;

import java.time.Instant;
import java.util.Optional;

/**
 * What the store contracts read and write in a store's schema past the ports, where no port shows or makes what a
 * test needs. Each store's test database offers one ({@link StoreContract.TestDatabase#probe()}).
 */
public interface StoreProbe {

    /** How many rows {@code PROC_STATE_HST} holds for the message (0 or 1). */
    long countProcessingHistory(long msgId);

    /** The message's row in {@code PROC_STATE_HST} as a {@link ProcRecord} (the archive time left out). */
    Optional<ProcRecord> processingHistory(long msgId);

    /** The message's reconciliation as its {@code PROC_STATE_HST} row holds it. */
    Optional<ArchivedReconciliation> archivedReconciliation(long msgId);

    /** How many rows {@code BACKFILL_RECONCILIATION} holds. */
    long countBackfillReconciliations();

    /** How many archived versions of the flight {@code FLIGHT_HST} holds. */
    long countFlightHistory(FlightId flid);

    /** The snapshot archived for the flight's version. */
    Optional<String> flightHistorySnapshot(FlightId flid, long stateVersion);

    /**
     * Set {@code BACKFILL_NEXT_AT} of a terminal row to null, the anomaly the scan's fallback branch exists for (no
     * port method produces it).
     */
    void clearBackfillNextAt(long msgId);

    /**
     * Write a {@code REQ_TRACK} row in {@code status}, closed ({@code DONE_AT}) at {@code closedAt} (null for an open
     * one; no port writes requests yet); its ID.
     */
    long insertRequest(String status, Instant closedAt);

    /** Whether the {@code REQ_TRACK} row is still there. */
    boolean requestExists(long id);

    /**
     * Make the database refuse every audit row of {@code operator} from now on (a check constraint), so that the
     * append fails in the database itself.
     */
    void refuseAuditRowsOf(String operator);
}
