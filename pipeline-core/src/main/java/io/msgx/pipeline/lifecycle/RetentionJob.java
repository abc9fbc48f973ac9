package io.msgx.pipeline.lifecycle;

import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.port.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Keeps the history and trail tables bounded (seeds §9.3 "archiving is not the end"): processing history,
 * flight history, the schedule trail, closed requests, the replay channel's raw copies and the operator audit trail
 * each lose rows older than their retention, in batches.
 */
public final class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    /**
     * @param flightHistory    ({@code msgx.retention.flight-history}) life of archived flights
     * @param scheduleLog      ({@code msgx.retention.schedule-log}) life of trail lines, after their scope ended
     * @param closedRequests   ({@code msgx.retention.closed-requests}) life of closed {@code REQ_TRACK} rows
     * @param operatorAudit    ({@code msgx.audit.retention}) life of {@code OPERATOR_AUDIT} rows (D-139)
     * @param batch            rows deleted per statement
     */
    public record Settings(Duration flightHistory, Duration scheduleLog, Duration closedRequests,
                           Duration operatorAudit, int batch) {
        public Settings {
            Objects.requireNonNull(flightHistory, "flightHistory");
            Objects.requireNonNull(scheduleLog, "scheduleLog");
            Objects.requireNonNull(closedRequests, "closedRequests");
            Objects.requireNonNull(operatorAudit, "operatorAudit");
            if (operatorAudit.compareTo(Duration.ofDays(1)) < 0) {
                throw new IllegalArgumentException("the operator audit trail is kept at least a day, got "
                        + operatorAudit);
            }
            if (batch < 1) {
                throw new IllegalArgumentException("the retention batch must be at least 1, got " + batch);
            }
        }

        /**
         * Flight history a year, the schedule trail 30 days, closed requests 30 days, the operator audit trail 400
         * days (a year and the time to look back at it, D-139); 1000 rows a statement.
         */
        public static Settings defaults() {
            return new Settings(Duration.ofDays(365), Duration.ofDays(30), Duration.ofDays(30), DEFAULT_OPERATOR_AUDIT,
                    1000);
        }

        /** The default life of an audit row ({@code msgx.audit.retention}). */
        public static final Duration DEFAULT_OPERATOR_AUDIT = Duration.ofDays(400);
    }

    /** Rows deleted in one run, per table. */
    public record Round(int processingHistory, int flightHistory, int scheduleLog, int closedRequests, int rawCopies,
                        int operatorAudit) {

        /** Rows deleted in all. */
        public int total() {
            return processingHistory + flightHistory + scheduleLog + closedRequests + rawCopies + operatorAudit;
        }
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
                        housekeeping.deleteRawCopiesBefore(now.minus(lifecycle.rawRetention()), limit)),
                BatchedDeletes.untilDrained(batch, limit ->
                        housekeeping.deleteOperatorAuditBefore(now.minus(settings.operatorAudit()), limit)));
        if (round.total() > 0) {
            log.info("Retention removed {}", round);
        }
        return round;
    }
}
