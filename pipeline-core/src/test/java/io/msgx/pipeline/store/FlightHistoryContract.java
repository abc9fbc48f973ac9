package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDay;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import static io.msgx.pipeline.store.FlightSamples.everything;
import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every store must do for the flight history cleanup (seeds §9.3, §12.5, INV-18, D1): which flights are past
 * their life (an old operation day, or none and no update for long, <b>and</b> deleted or quiet), the archive to
 * the history store and the physical delete, inside a locked transaction, both or neither. A store's test class
 * extends this and supplies a fresh, empty store per test.
 */
public abstract class FlightHistoryContract extends StoreContract {

    private static final int BATCH = 50;
    /** Operation days before this one are past. */
    private static final LocalDate DAY_BEFORE = LocalDate.of(2024, 3, 9);
    private static final LocalDate OLD_DAY = LocalDate.of(2024, 3, 1);
    private static final LocalDate RECENT_DAY = LocalDate.of(2024, 3, 10);

    private Instant now() {
        return clock.instant();
    }

    private Instant quietBefore() {
        return now().minus(Duration.ofDays(2));
    }

    private Instant unplacedBefore() {
        return now().minus(Duration.ofDays(10));
    }

    private static FlightState flight(String flid, FlightStatus status, LocalDate day) {
        return plain(flid).withStatus(status).withOperationDay(day == null ? null : OperationDay.of(day));
    }

    /** Saves the flight as last updated at {@code at}. */
    private void saved(FlightState flight, Instant at) {
        store().inLockedTransaction(tx -> {
            tx.flights().save(List.of(flight), at);
            return null;
        });
    }

    private List<FlightId> candidates(Instant unplacedBefore, Instant quietBefore, int limit) {
        return store().inLockedTransaction(tx -> tx.flightHistory()
                .candidates(DAY_BEFORE, unplacedBefore, quietBefore, limit));
    }

    private List<FlightId> candidates() {
        return candidates(unplacedBefore(), quietBefore(), BATCH);
    }

    private Optional<FlightState> find(String flid) {
        return store().inTransaction(tx -> tx.flights().find(ids(flid))).stream().findFirst();
    }

    // --- candidates ---

    @Test
    void aDeletedFlightOfAPastDayIsACandidateHoweverRecentlyUpdated() {
        saved(flight("1001", FlightStatus.DELETED, OLD_DAY), now().minus(Duration.ofHours(1)));
        saved(flight("1002", FlightStatus.DELETED, DAY_BEFORE), now().minus(Duration.ofDays(30)));
        saved(flight("1003", FlightStatus.DELETED, RECENT_DAY), now().minus(Duration.ofDays(30)));

        assertThat(candidates()).containsExactly(FlightId.of("1001"));
    }

    @Test
    void aQuietFlightOfAPastDayIsACandidate() {
        saved(flight("1001", FlightStatus.ACTIVE, OLD_DAY), now().minus(Duration.ofDays(3)));
        // active and updated recently: not ended yet, whatever its day
        saved(flight("1002", FlightStatus.ACTIVE, OLD_DAY), now().minus(Duration.ofHours(1)));
        // quiet since the cutoff exactly: not before it
        saved(flight("1003", FlightStatus.ACTIVE, OLD_DAY), quietBefore());
        // quiet, but its day is not past
        saved(flight("1004", FlightStatus.ACTIVE, RECENT_DAY), now().minus(Duration.ofDays(30)));

        assertThat(candidates()).containsExactly(FlightId.of("1001"));
    }

    @Test
    void aFlightWithoutOperationDayIsPastItsLifeWhenNotUpdatedForLong() {
        saved(flight("1001", FlightStatus.ACTIVE, null), now().minus(Duration.ofDays(20)));
        saved(flight("1002", FlightStatus.DELETED, null), now().minus(Duration.ofDays(5)));
        saved(flight("1003", FlightStatus.DELETED, null), now().minus(Duration.ofDays(11)));

        assertThat(candidates()).containsExactlyInAnyOrder(FlightId.of("1001"), FlightId.of("1003"));
    }

    @Test
    void aFlightWithoutOperationDayStillNeedsEvidenceThatItEnded() {
        // Unplaced and not updated for a day and a half: past the unplaced cutoff, but neither deleted nor quiet.
        saved(flight("1001", FlightStatus.ACTIVE, null), now().minus(Duration.ofHours(36)));
        saved(flight("1002", FlightStatus.DELETED, null), now().minus(Duration.ofHours(36)));

        assertThat(candidates(now().minus(Duration.ofDays(1)), quietBefore(), BATCH))
                .containsExactly(FlightId.of("1002"));
    }

    @Test
    void candidatesAreOldestFirstAndLimited() {
        saved(flight("1001", FlightStatus.ACTIVE, LocalDate.of(2024, 3, 3)), now().minus(Duration.ofDays(3)));
        saved(flight("1003", FlightStatus.ACTIVE, LocalDate.of(2024, 3, 1)), now().minus(Duration.ofDays(5)));
        saved(flight("1002", FlightStatus.DELETED, LocalDate.of(2024, 3, 2)), now().minus(Duration.ofDays(4)));

        assertThat(candidates()).containsExactly(FlightId.of("1003"), FlightId.of("1002"), FlightId.of("1001"));
        assertThat(candidates(unplacedBefore(), quietBefore(), 2))
                .containsExactly(FlightId.of("1003"), FlightId.of("1002"));
    }

    // --- archive and delete ---

    @Test
    void anArchivedFlightIsDeletedWithEveryListRow() {
        var flight = everything("1001", "2001").withStatus(FlightStatus.DELETED);
        var other = everything("1002", "2001");
        saved(flight, now().minus(Duration.ofDays(3)));
        saved(other, now().minus(Duration.ofDays(3)));

        store().inLockedTransaction(tx -> {
            tx.flightHistory().archive(flight, "{\"flid\":\"1001\"}", now());
            tx.flightHistory().delete(flight.flid());
            return null;
        });

        assertThat(find("1001")).isEmpty();
        assertThat(probe.countFlightHistory(flight.flid())).isEqualTo(1);
        assertThat(find("1002")).as("another flight is untouched").contains(other);
        assertThat(probe.countFlightHistory(other.flid())).isZero();

        // Saved again without lists, the flight shows none: no list row of the old one survived.
        var reborn = plain("1001");
        saved(reborn, now());
        assertThat(find("1001")).contains(reborn);
    }

    @Test
    void theHistoryKeepsTheSnapshotOfTheArchivedVersion() {
        var flight = everything("1001", "2001");
        saved(flight, now().minus(Duration.ofDays(3)));

        store().inLockedTransaction(tx -> {
            tx.flightHistory().archive(flight, "{\"flid\":\"1001\",\"v\":3}", now());
            tx.flightHistory().delete(flight.flid());
            return null;
        });

        assertThat(probe.flightHistorySnapshot(flight.flid(), flight.stateVersion()))
                .contains("{\"flid\":\"1001\",\"v\":3}");
    }

    @Test
    void aVersionArchivedAlreadyFailsTheTransactionAndNothingIsDeleted() {
        var first = everything("1001", "2001");
        var second = plain("1002");
        saved(first, now().minus(Duration.ofDays(3)));
        saved(second, now().minus(Duration.ofDays(3)));
        store().inLockedTransaction(tx -> {
            tx.flightHistory().archive(first, "{\"n\":1}", now());
            return null;
        });
        clock.tick(Duration.ofMinutes(1));

        assertThatThrownBy(() -> store().inLockedTransaction(tx -> {
            tx.flightHistory().archive(second, "{\"n\":2}", now());
            tx.flightHistory().delete(second.flid());
            tx.flightHistory().archive(first, "{\"n\":3}", now());
            tx.flightHistory().delete(first.flid());
            return null;
        })).isInstanceOf(RuntimeException.class);

        assertThat(find("1001")).contains(first);
        assertThat(find("1002")).contains(second);
        assertThat(probe.countFlightHistory(first.flid())).isEqualTo(1);
        assertThat(probe.countFlightHistory(second.flid())).isZero();
    }

    @Test
    void aDeletedFlightIsNoCandidateAnyMore() {
        var flight = flight("1001", FlightStatus.DELETED, OLD_DAY);
        saved(flight, now().minus(Duration.ofDays(3)));
        assertThat(candidates()).containsExactly(flight.flid());

        store().inLockedTransaction(tx -> {
            tx.flightHistory().archive(flight, "{}", now());
            tx.flightHistory().delete(flight.flid());
            return null;
        });

        assertThat(candidates()).isEmpty();
    }
}
