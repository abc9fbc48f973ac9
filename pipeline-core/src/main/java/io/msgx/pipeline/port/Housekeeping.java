package io.msgx.pipeline.port;

import java.time.Instant;
import java.time.LocalDate;

/** Retention of the append-only and history tables; each call deletes at most {@code limit} rows. */
public interface Housekeeping {

    /** {@code PROC_STATE_HST} rows archived before {@code cutoff}. */
    int deleteProcessingHistoryBefore(Instant cutoff, int limit);

    /** Flight history ({@code FLIGHT_HST}) archived before {@code cutoff}. */
    int deleteFlightHistoryBefore(Instant cutoff, int limit);

    /** {@code SCHD_SNAP_LOG} lines whose scope ended before {@code scopeEndBefore} and recorded before {@code recordedBefore}. */
    int deleteScheduleLogBefore(LocalDate scopeEndBefore, Instant recordedBefore, int limit);

    /** Closed ({@code DONE}, {@code EXPIRED}) {@code REQ_TRACK} rows closed before {@code cutoff}. */
    int deleteClosedRequestsBefore(Instant cutoff, int limit);

    /** Raw message copies (the replay channel) kept before {@code cutoff}. */
    int deleteRawCopiesBefore(Instant cutoff, int limit);

    /**
     * {@code OPERATOR_AUDIT} rows recorded before {@code cutoff} ({@code msgx.audit.retention}): the only deletion of
     * the audit trail (D-139).
     */
    int deleteOperatorAuditBefore(Instant cutoff, int limit);
}
