package io.msgx.pipeline.lifecycle;

import io.msgx.domain.engine.Decision;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.published.ChangeCause;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.pipeline.pump.FlightChangeWriter;
import io.msgx.pipeline.pump.FlightReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

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
 * If the archive fails the transaction rolls back and nothing is deleted; the flight is tried again in the next
 * rounds, after a full batch of the others, so flights that keep failing never stop the clean-up of the rest. Events
 * of the cleanup carry {@code msgId} 0 and {@code type=LIFECYCLE}, {@code styp=CLEANUP}.
 */
public final class FlightHistoryCleanup {

    private static final Logger log = LoggerFactory.getLogger(FlightHistoryCleanup.class);
    private static final int MAX_STUCK = 1000;

    private final PipelineStore store;
    private final FlightStateEngine engine;
    private final OperationDayRule dayRule;
    private final FlightHistorySettings settings;
    private final Clock clock;
    private final FlightEventJson json;
    /** The flights whose clean-up failed in an earlier round, still candidates; at most {@link #MAX_STUCK}. */
    private final Set<FlightId> stuck = new LinkedHashSet<>();

    public FlightHistoryCleanup(PipelineStore store, FlightStateEngine engine, OperationDayRule dayRule,
                                FlightHistorySettings settings, Clock clock) {
        this.store = store;
        this.engine = engine;
        this.dayRule = dayRule;
        this.json = new FlightEventJson(dayRule.airportZone());
        this.settings = settings;
        this.clock = clock;
    }

    /** What one round did. */
    public record Round(int archived, int tombstoned, int failed) {
    }

    public Round runOnce() {
        var listed = store.inTransaction(tx -> candidates(tx, clock.instant(), settings.batch() + stuck.size()));
        // A flight that keeps failing must not take a place of the batch from the others, round after round: each
        // round takes a full batch of the others first, then tries at most a batch of the failing ones again, those
        // tried longest ago first (a failure puts a flight last), so failures cannot make a round ever longer.
        var fresh = listed.stream().filter(flid -> !stuck.contains(flid)).limit(settings.batch());
        var stillListed = new HashSet<>(listed);
        var retried = stuck.stream().filter(stillListed::contains).limit(settings.batch());
        int archived = 0;
        int tombstoned = 0;
        int failed = 0;
        for (var flid : Stream.concat(fresh, retried).toList()) {
            try {
                var outcome = store.inLockedTransaction(tx -> cleanUp(tx, flid));
                stuck.remove(flid);
                if (outcome != Outcome.NO_LONGER_A_CANDIDATE) {
                    archived++;
                }
                if (outcome == Outcome.TOMBSTONED_AND_ARCHIVED) {
                    tombstoned++;
                }
            } catch (RuntimeException e) {
                failed++;
                stuck.remove(flid);
                if (stuck.size() < MAX_STUCK) {
                    stuck.add(flid); // last in the order of the next retries
                }
                log.error("Flight history: FLID {} not archived, nothing deleted; retried next round: {}", flid, e.toString());
            }
        }
        stuck.retainAll(stillListed);
        if (archived + failed > 0) {
            log.info("Flight history: {} flight(s) archived and removed ({} needed a tombstone first), {} failed",
                    archived, tombstoned, failed);
        }
        return new Round(archived, tombstoned, failed);
    }

    private enum Outcome { ARCHIVED, TOMBSTONED_AND_ARCHIVED, NO_LONGER_A_CANDIDATE }

    private List<FlightId> candidates(PipelineTransaction tx, Instant now, int limit) {
        var cutoffs = Cutoffs.at(now, dayRule, settings);
        return tx.flightHistory().candidates(cutoffs.operationDayBefore(), cutoffs.unplacedBefore(),
                cutoffs.quietBefore(), limit);
    }

    /** When a flight's life is past, as of {@code now}. */
    private record Cutoffs(LocalDate operationDayBefore, Instant unplacedBefore, Instant quietBefore) {

        static Cutoffs at(Instant now, OperationDayRule dayRule, FlightHistorySettings settings) {
            var today = dayRule.dayAt(now).date();
            return new Cutoffs(today.minusDays(settings.operationDayRetention().toDays()),
                    now.minus(settings.unplacedRetention()), now.minus(settings.quietPeriod()));
        }
    }

    private Outcome cleanUp(PipelineTransaction tx, FlightId flid) {
        var now = clock.instant();
        var cutoffs = Cutoffs.at(now, dayRule, settings);
        if (!tx.flightHistory().isCandidate(flid, cutoffs.operationDayBefore(), cutoffs.unplacedBefore(),
                cutoffs.quietBefore())) {
            return Outcome.NO_LONGER_A_CANDIDATE;
        }
        // Every read goes through the writer, so it knows what the store holds of each flight it writes: a flight it
        // did not read would be taken for a new one, its list rows inserted again beside the stored ones.
        var writer = new FlightChangeWriter(tx.flights(), json);
        var flight = writer.flights().find(List.of(flid)).get(0);
        boolean tombstoned = false;
        if (flight.isActive()) {
            var deletion = new FlightDeletion(flid.value());
            var decision = engine.apply(FlightReads.snapshotFor(engine, writer.flights(), deletion), deletion, 0);
            if (!(decision instanceof Decision.Applied applied)) {
                throw new IllegalStateException("deleting ACTIVE FLID " + flid + " decided " + decision);
            }
            writer.add(applied.changes(), ChangeCause.RETENTION, now);
            writer.flush(tx, now);
            flight = applied.changes().stream().map(FlightChange::after).filter(f -> f.flid().equals(flid))
                    .findFirst().orElseThrow();
            tombstoned = true;
        }
        tx.flightHistory().archive(flight, json.state(flight, null, ChangeCause.RETENTION, now), now);
        tx.flightHistory().delete(flid);
        return tombstoned ? Outcome.TOMBSTONED_AND_ARCHIVED : Outcome.ARCHIVED;
    }
}
