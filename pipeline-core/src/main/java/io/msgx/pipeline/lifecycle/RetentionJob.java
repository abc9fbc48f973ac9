package io.msgx.pipeline.lifecycle;

import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.BatchedDeletes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Keeps the history and trail tables bounded (seeds §9.3 "archiving is not the end"): processing history,
 * flight history, the schedule trail, closed requests and the replay channel's raw copies each lose rows
 * older than their retention, in batches.
 */
public final class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    /**
     * @param flightHistory    ({@code msgx.retention.flight-history}) life of archived flights
     * @param scheduleLog      ({@code msgx.retention.schedule-log}) life of trail lines, after their scope ended
     * @param closedRequests   ({@code msgx.retention.closed-requests}) life of closed {@code REQ_TRACK} rows
     * @param batch            rows deleted per statement
     */
    public record Settings(Duration flightHistory, Duration scheduleLog, Duration closedRequests, int batch) {
        public Settings {
            Objects.requireNonNull(flightHistory, "flightHistory");
            Objects.requireNonNull(scheduleLog, "scheduleLog");
            Objects.requireNonNull(closedRequests, "closedRequests");
            if (batch < 1) {
                throw new IllegalArgumentException("the retention batch must be at least 1, got " + batch);
            }
        }

        /** Flight history a year, the schedule trail 30 days, closed requests 30 days; 1000 rows a statement. */
        public static Settings defaults() {
            return new Settings(Duration.ofDays(365), Duration.ofDays(30), Duration.ofDays(30), 1000);
        }
    }

    /** Rows deleted in one run, per table. */
    public record Round(int processingHistory, int flightHistory, int scheduleLog, int closedRequests, int rawCopies) {
    }

    private final PipelineStore store;
    private final LifecycleSettings lifecycle;
    private final Settings settings;
    private final OperationDayRule dayRule;
    private final Clock clock;

    public RetentionJob(PipelineStore store, LifecycleSettings lifecycle, Settings settings, OperationDayRule dayRule,
                        Clock clock) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.settings = settings;
        this.dayRule = dayRule;
        this.clock = clock;
    }

    public Round runOnce() {
        var now = clock.instant();
        var housekeeping = store.housekeeping();
        int batch = settings.batch();
        var round = new Round(
                BatchedDeletes.untilDrained(batch, limit ->
                        housekeeping.deleteProcessingHistoryBefore(now.minus(lifecycle.processingHistory()), limit)),
                BatchedDeletes.untilDrained(batch, limit ->
                        housekeeping.deleteFlightHistoryBefore(now.minus(settings.flightHistory()), limit)),
                BatchedDeletes.untilDrained(batch, limit -> housekeeping.deleteScheduleLogBefore(
                        dayRule.dayAt(now).date().minusDays(settings.scheduleLog().toDays()),
                        now.minus(settings.scheduleLog()), limit)),
                BatchedDeletes.untilDrained(batch, limit ->
                        housekeeping.deleteClosedRequestsBefore(now.minus(settings.closedRequests()), limit)),
                BatchedDeletes.untilDrained(batch, limit ->
                        housekeeping.deleteRawCopiesBefore(now.minus(lifecycle.rawRetention()), limit)));
        if (round.processingHistory() + round.flightHistory() + round.scheduleLog() + round.closedRequests()
                + round.rawCopies() > 0) {
            log.info("Retention removed {}", round);
        }
        return round;
    }
}
