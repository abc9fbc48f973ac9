package io.msgx.pipeline.port;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * {@code SCHD_SNAP_LOG}: an append-only trail of processed schedules. Written after the business commit;
 * never read to decide anything, and rebuildable, so a crash that loses an entry loses nothing that matters.
 */
public interface ScheduleLog {

    void append(Entry entry);

    /** {@link #append} for several schedules. The default appends one by one; a store overrides it with one batch. */
    default void appendAll(java.util.List<Entry> entries) {
        entries.forEach(this::append);
    }

    /** The entries of one message, oldest first. */
    List<Entry> entriesOf(long msgId);

    /**
     * One trail entry.
     *
     * @param kind       {@code DNLD}, {@code RESP} or {@code ADFT}
     * @param scopeStart the earliest operation day the schedule covers (null when none could be derived)
     * @param scopeEnd   the latest operation day it covers
     * @param outcome    {@code APPLIED}, {@code UNCHANGED}, {@code REJECTED} or {@code REPLAYED}
     */
    record Entry(long msgId, String kind, LocalDate scopeStart, LocalDate scopeEnd, int flights, int changed,
                 String outcome, Instant recordedAt) {
        public Entry {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(recordedAt, "recordedAt");
        }
    }
}
