package io.msgx.pipeline.lifecycle;

import io.msgx.domain.engine.Decision;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.pipeline.event.FlightEventJson;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.pump.FlightChangeWriter;
import io.msgx.pipeline.pump.FlightReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Moves ended flights from the current state to the history store (seeds §9.3, §12.5; INV-18, D1).
 *
 * <p>Each candidate is handled in its own transaction holding {@code PIPELINE_LOCK} (so it never interleaves
 * with the pump) that re-checks it is still a candidate, then:
 * <ol>
 *   <li>a flight still {@code ACTIVE} is first deleted as an {@code FDEL} would — same engine rule, so it
 *       gets its tombstone, its master is versioned and notified, and its own code-share children go with it;
 *       a flight deleted by {@code FDEL} already gets no second tombstone;</li>
 *   <li>its final state is written to the history store; </li>
 *   <li>only then is it physically deleted, with every list.</li>
 * </ol>
 * If the archive fails the transaction rolls back and nothing is deleted. Events of the cleanup carry
 * {@code msgId} 0 and {@code type=LIFECYCLE}, {@code styp=CLEANUP}.
 */
public final class FlightHistoryCleanup {

    private static final Logger log = LoggerFactory.getLogger(FlightHistoryCleanup.class);

    private final PipelineStore store;
    private final FlightStateEngine engine;
    private final OperationDayRule dayRule;
    private final FlightHistorySettings settings;
    private final Clock clock;
    private final FlightEventJson json = new FlightEventJson();

    public FlightHistoryCleanup(PipelineStore store, FlightStateEngine engine, OperationDayRule dayRule,
                                FlightHistorySettings settings, Clock clock) {
        this.store = store;
        this.engine = engine;
        this.dayRule = dayRule;
        this.settings = settings;
        this.clock = clock;
    }

    /** What one round did. */
    public record Round(int archived, int tombstoned, int failed) {
    }

    public Round runOnce() {
        var candidates = store.inTransaction(tx -> candidates(tx, clock.instant()));
        int archived = 0;
        int tombstoned = 0;
        int failed = 0;
        for (var flid : candidates) {
            try {
                var outcome = store.inLockedTransaction(tx -> cleanUp(tx, flid));
                if (outcome != Outcome.NO_LONGER_A_CANDIDATE) {
                    archived++;
                }
                if (outcome == Outcome.TOMBSTONED_AND_ARCHIVED) {
                    tombstoned++;
                }
            } catch (RuntimeException e) {
                failed++;
                log.error("Flight history: FLID {} not archived, nothing deleted; retried next round: {}", flid, e.toString());
            }
        }
        if (archived + failed > 0) {
            log.info("Flight history: {} flight(s) archived and removed ({} needed a tombstone first), {} failed",
                    archived, tombstoned, failed);
        }
        return new Round(archived, tombstoned, failed);
    }

    private enum Outcome { ARCHIVED, TOMBSTONED_AND_ARCHIVED, NO_LONGER_A_CANDIDATE }

    private List<FlightId> candidates(PipelineTransaction tx, Instant now) {
        var today = dayRule.dayAt(now).date();
        var operationDayBefore = today.minusDays(settings.operationDayRetention().toDays());
        return tx.flightHistory().candidates(operationDayBefore, now.minus(settings.unplacedRetention()),
                now.minus(settings.quietPeriod()), settings.batch());
    }

    private Outcome cleanUp(PipelineTransaction tx, FlightId flid) {
        var now = clock.instant();
        if (!candidates(tx, now).contains(flid)) {
            return Outcome.NO_LONGER_A_CANDIDATE;
        }
        var flight = tx.flights().find(List.of(flid)).get(0);
        boolean tombstoned = false;
        if (flight.isActive()) {
            var deletion = new FlightDeletion(flid.value());
            var decision = engine.apply(FlightReads.snapshotFor(engine, tx.flights(), deletion), deletion, 0);
            if (!(decision instanceof Decision.Applied applied)) {
                throw new IllegalStateException("deleting ACTIVE FLID " + flid + " decided " + decision);
            }
            FlightChangeWriter.write(tx, applied.changes(), 0, "LIFECYCLE", "CLEANUP", now);
            flight = applied.changes().stream().map(FlightChange::after).filter(f -> f.flid().equals(flid))
                    .findFirst().orElseThrow();
            tombstoned = true;
        }
        tx.flightHistory().archive(flight, json.state(flight, null, now), now);
        tx.flightHistory().delete(flid);
        return tombstoned ? Outcome.TOMBSTONED_AND_ARCHIVED : Outcome.ARCHIVED;
    }
}
