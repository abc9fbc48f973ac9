package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.lifecycle.RecordArchiving;
import io.msgx.pipeline.port.Housekeeping;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every store's {@link Housekeeping} must do (seeds §9.3, G-HST-RETENTION): each call deletes only rows older
 * than its cutoff, at most {@code limit} of them. A store's test class extends this and supplies a fresh, empty
 * store per test.
 */
public abstract class HousekeepingContract extends StoreContract {

    private static final int BATCH = 50;

    private Instant now() {
        return clock.instant();
    }

    private Housekeeping housekeeping() {
        return store().housekeeping();
    }

    /** Archives the processing record of a new message now (ended and confirmed now). */
    private void archivedRecord(long msgId) {
        var store = store();
        store.queue().insertIfAbsent(msgId, null, now());
        store.queue().finish(msgId, MessageEnd.succeeded("applied"), now());
        store.backfillMarks().backfillConfirmed(msgId, now());
        var record = store.queue().find(msgId).orElseThrow();
        assertThat(new RecordArchiving(store).archive(record, now())).isTrue();
    }

    /** Archives the flight to the history store now. */
    private void archivedFlight(FlightState flight) {
        store().inLockedTransaction(tx -> {
            tx.flightHistory().archive(flight, "{}", now());
            return null;
        });
    }

    private long remainingProcessingHistory(long... msgIds) {
        long count = 0;
        for (long msgId : msgIds) {
            count += probe.countProcessingHistory(msgId);
        }
        return count;
    }

    // --- PROC_STATE_HST ---

    @Test
    void processingHistoryArchivedBeforeTheCutoffIsDeleted() {
        archivedRecord(1);
        clock.tick(Duration.ofDays(1));
        archivedRecord(2);
        clock.tick(Duration.ofDays(1));
        var cutoff = now();
        archivedRecord(3);

        assertThat(housekeeping().deleteProcessingHistoryBefore(cutoff, BATCH)).isEqualTo(2);

        assertThat(probe.countProcessingHistory(1)).isZero();
        assertThat(probe.countProcessingHistory(2)).isZero();
        assertThat(probe.countProcessingHistory(3)).as("archived at the cutoff exactly").isEqualTo(1);
        assertThat(store().queue().find(1)).as("the shadow is not history")
                .map(ProcRecord::status).contains(ProcStatus.ARCHIVED);
    }

    @Test
    void processingHistoryIsDeletedAtMostLimitRowsAtATime() {
        archivedRecord(1);
        archivedRecord(2);
        archivedRecord(3);
        clock.tick(Duration.ofDays(1));

        assertThat(housekeeping().deleteProcessingHistoryBefore(now(), 2)).isEqualTo(2);
        assertThat(remainingProcessingHistory(1, 2, 3)).isEqualTo(1);

        assertThat(housekeeping().deleteProcessingHistoryBefore(now(), 2)).isEqualTo(1);
        assertThat(remainingProcessingHistory(1, 2, 3)).isZero();
        assertThat(housekeeping().deleteProcessingHistoryBefore(now(), 2)).isZero();
    }

    // --- FLIGHT_HST ---

    @Test
    void flightHistoryArchivedBeforeTheCutoffIsDeleted() {
        archivedFlight(plain("1001"));
        clock.tick(Duration.ofDays(1));
        archivedFlight(plain("1002"));
        clock.tick(Duration.ofDays(1));
        var cutoff = now();
        archivedFlight(plain("1003"));

        assertThat(housekeeping().deleteFlightHistoryBefore(cutoff, BATCH)).isEqualTo(2);

        assertThat(probe.countFlightHistory(FlightId.of("1001"))).isZero();
        assertThat(probe.countFlightHistory(FlightId.of("1002"))).isZero();
        assertThat(probe.countFlightHistory(FlightId.of("1003"))).isEqualTo(1);
    }

    @Test
    void flightHistoryIsDeletedAtMostLimitRowsAtATime() {
        var flight = plain("1001");
        archivedFlight(flight);
        archivedFlight(flight.withVersionAfter(flight, 1002));
        archivedFlight(plain("1002"));
        clock.tick(Duration.ofDays(1));

        assertThat(housekeeping().deleteFlightHistoryBefore(now(), 2)).isEqualTo(2);
        assertThat(probe.countFlightHistory(FlightId.of("1001")) + probe.countFlightHistory(FlightId.of("1002")))
                .isEqualTo(1);

        assertThat(housekeeping().deleteFlightHistoryBefore(now(), 2)).isEqualTo(1);
        assertThat(housekeeping().deleteFlightHistoryBefore(now(), 2)).isZero();
    }

    // --- SCHD_SNAP_LOG ---

    private void trail(long msgId, LocalDate scopeEnd, Instant recordedAt) {
        store().scheduleLog().append(new ScheduleLog.Entry(msgId, "DNLD", scopeEnd.minusDays(1), scopeEnd, 10, 2,
                "APPLIED", recordedAt));
    }

    @Test
    void theScheduleTrailIsDeletedOnlyWhenItsScopeEndedAndItWasRecordedBeforeTheCutoffs() {
        var scopeEndBefore = LocalDate.of(2024, 3, 5);
        var recordedBefore = now().minus(Duration.ofDays(3));
        trail(1, LocalDate.of(2024, 3, 1), now().minus(Duration.ofDays(10)));  // both old: deleted
        trail(2, LocalDate.of(2024, 3, 1), now().minus(Duration.ofDays(1)));   // recorded recently
        trail(3, LocalDate.of(2024, 3, 20), now().minus(Duration.ofDays(10))); // scope not ended
        trail(4, scopeEndBefore, now().minus(Duration.ofDays(10)));            // scope ends on the cutoff day
        trail(5, LocalDate.of(2024, 3, 1), recordedBefore);                    // recorded at the cutoff exactly

        assertThat(housekeeping().deleteScheduleLogBefore(scopeEndBefore, recordedBefore, BATCH)).isEqualTo(1);

        assertThat(store().scheduleLog().entriesOf(1)).isEmpty();
        for (long msgId = 2; msgId <= 5; msgId++) {
            assertThat(store().scheduleLog().entriesOf(msgId)).as("message %d", msgId).hasSize(1);
        }
    }

    @Test
    void theScheduleTrailIsDeletedAtMostLimitLinesAtATime() {
        for (long msgId = 1; msgId <= 3; msgId++) {
            trail(msgId, LocalDate.of(2024, 3, 1), now().minus(Duration.ofDays(10)));
        }

        assertThat(housekeeping().deleteScheduleLogBefore(LocalDate.of(2024, 3, 5), now(), 2)).isEqualTo(2);
        assertThat(housekeeping().deleteScheduleLogBefore(LocalDate.of(2024, 3, 5), now(), 2)).isEqualTo(1);
        assertThat(housekeeping().deleteScheduleLogBefore(LocalDate.of(2024, 3, 5), now(), 2)).isZero();
    }

    // --- REQ_TRACK ---

    @Test
    void closedRequestsClosedBeforeTheCutoffAreDeleted() {
        var old = now().minus(Duration.ofDays(10));
        long done = probe.insertRequest("DONE", old);
        long expired = probe.insertRequest("EXPIRED", old);
        long recentlyDone = probe.insertRequest("DONE", now());
        long pending = probe.insertRequest("PENDING", null);
        long sent = probe.insertRequest("SENT", null);
        var cutoff = now().minus(Duration.ofDays(1));

        assertThat(housekeeping().deleteClosedRequestsBefore(cutoff, BATCH)).isEqualTo(2);

        assertThat(probe.requestExists(done)).isFalse();
        assertThat(probe.requestExists(expired)).isFalse();
        assertThat(probe.requestExists(recentlyDone)).isTrue();
        assertThat(probe.requestExists(pending)).isTrue();
        assertThat(probe.requestExists(sent)).isTrue();
    }

    @Test
    void closedRequestsAreDeletedAtMostLimitRowsAtATime() {
        var old = now().minus(Duration.ofDays(10));
        var ids = List.of(probe.insertRequest("DONE", old), probe.insertRequest("EXPIRED", old),
                probe.insertRequest("DONE", old));

        assertThat(housekeeping().deleteClosedRequestsBefore(now(), 2)).isEqualTo(2);
        assertThat(ids).filteredOn(probe::requestExists).hasSize(1);
        assertThat(housekeeping().deleteClosedRequestsBefore(now(), 2)).isEqualTo(1);
        assertThat(ids).filteredOn(probe::requestExists).isEmpty();
    }

    // --- RAW_MSG_COPY ---

    @Test
    void rawCopiesKeptBeforeTheCutoffAreDeleted() {
        var copies = store().rawCopies();
        copies.keep(1, "<MSG>1</MSG>", now());
        clock.tick(Duration.ofDays(1));
        copies.keep(2, "<MSG>2</MSG>", now());
        clock.tick(Duration.ofDays(1));
        var cutoff = now();
        copies.keep(3, "<MSG>3</MSG>", now());

        assertThat(housekeeping().deleteRawCopiesBefore(cutoff, BATCH)).isEqualTo(2);

        assertThat(copies.find(1)).isEmpty();
        assertThat(copies.find(2)).isEmpty();
        assertThat(copies.find(3)).contains("<MSG>3</MSG>");
    }

    @Test
    void rawCopiesAreDeletedAtMostLimitRowsAtATime() {
        var copies = store().rawCopies();
        for (long msgId = 1; msgId <= 3; msgId++) {
            copies.keep(msgId, "<MSG>" + msgId + "</MSG>", now());
        }
        clock.tick(Duration.ofSeconds(1));

        assertThat(housekeeping().deleteRawCopiesBefore(now(), 2)).isEqualTo(2);
        assertThat(List.of(1L, 2L, 3L)).filteredOn(id -> copies.find(id).isPresent()).hasSize(1);
        assertThat(housekeeping().deleteRawCopiesBefore(now(), 2)).isEqualTo(1);
        assertThat(housekeeping().deleteRawCopiesBefore(now(), 2)).isZero();
    }
}
