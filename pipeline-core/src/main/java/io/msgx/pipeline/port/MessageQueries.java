package io.msgx.pipeline.port;

import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;

import java.time.Instant;
import java.util.List;

/** Operators' and gauges' reads of {@code PROC_STATE}: listings by state and the backlog counts. */
public interface MessageQueries {

    /** Records in {@code status}, oldest mailbox ID first, at most {@code limit} (operators' listings). */
    List<ProcRecord> withStatus(ProcStatus status, int limit);

    /** Counts for the backlog gauges; {@code ARCHIVED} rows are not counted. */
    Backlog backlog();

    /** Open and terminal counts, and the enqueue time of the oldest open message (null when none). */
    record Backlog(long pending, long failed, long succeeded, long skipped, long dead, Instant oldestOpenEnqueuedAt) {
    }
}
