package io.msgx.pipeline.store;

import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.lifecycle.FlightHistoryCleanup;
import io.msgx.pipeline.lifecycle.FlightHistorySettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.msgx.pipeline.store.FlightSamples.everything;
import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link FlightHistoryContract}, plus what the database stores add: the cleanup's writes refuse to run outside a
 * locked transaction (INV-18); and the cleanup itself ({@link FlightHistoryCleanup}) on the store's real statements:
 * flights with every kind of list, masters with their code-share children and a child alone are tombstoned, archived
 * and removed, and a flight that comes back continues above every version its FLID had (D-103). Apart from {@link FlightHistoryContract} since an in-memory fake,
 * which had no unlocked transaction to refuse, ran that one alone (D-101).
 */
public abstract class DatabaseFlightHistoryContract extends FlightHistoryContract {

    @Test
    void theCleanupWritesOnlyInsideALockedTransaction() {
        var flight = plain("1001");
        store().inTransaction(tx -> {
            tx.flights().save(List.of(flight), clock.instant());
            return null;
        });

        assertThatThrownBy(() -> store().inTransaction(tx -> {
            tx.flightHistory().archive(flight, "{}", clock.instant());
            return null;
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("inLockedTransaction");
        assertThatThrownBy(() -> store().inTransaction(tx -> {
            tx.flightHistory().delete(flight.flid());
            return null;
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("inLockedTransaction");

        List<FlightState> kept = store().inTransaction(tx -> tx.flights().find(ids("1001")));
        assertThat(kept).containsExactly(flight);
        assertThat(probe.countFlightHistory(flight.flid())).isZero();
    }

    private final FlightStateEngine engine = new FlightStateEngine(EngineSettings.defaults());

    private FlightHistoryCleanup cleanup() {
        return new FlightHistoryCleanup(store(), engine, OperationDayRule.defaults(), FlightHistorySettings.defaults(),
                clock);
    }

    private List<FlightState> current(String... flids) {
        return store().inTransaction(tx -> tx.flights().find(ids(flids)));
    }

    /**
     * Issue 33: an ACTIVE flight with list rows was tombstoned through a buffer that had not read it, so its list rows
     * were inserted again beside the stored ones (a unique violation, every round, for ever).
     */
    @Test
    void flightsWithEveryListMastersWithChildrenAndAChildAloneAreTombstonedArchivedAndRemoved() {
        var staying = everything("2200", null).withOperationDay(OperationDay.of(FlightSamples.DAY.date().plusDays(6)));
        saved(List.of(everything("2001", null), everything("2100", null), everything("2101", "2100"),
                everything("2102", "2100"), everything("2201", "2200")));
        clock.tick(Duration.ofDays(5));
        saved(List.of(staying));

        var round = cleanup().runOnce();

        assertThat(round.failed()).as("no flight failed").isZero();
        assertThat(round).isEqualTo(new FlightHistoryCleanup.Round(5, 3, 0));
        assertThat(current("2001", "2100", "2101", "2102", "2201")).as("all removed").isEmpty();
        for (var flid : List.of("2001", "2100", "2101", "2102", "2201")) {
            assertThat(probe.countFlightHistory(FlightId.of(flid))).as("FLID %s archived once", flid).isEqualTo(1);
        }
        var master = current("2200").get(0);
        assertThat(master.status()).isEqualTo(FlightStatus.ACTIVE);
        assertThat(master.stateVersion()).as("its child left its MAFL").isEqualTo(staying.stateVersion() + 1);
        assertThat(master.lists()).as("the staying master's list rows, once each").isEqualTo(staying.lists());
        assertThat(master.fields()).isEqualTo(staying.fields());
    }

    /**
     * Issue 33: a flight that came back after its archive started again at version 1, which consumers drop, and its
     * next archive collided with the first. Its versions go on from the last one, archive after archive, and from the
     * highest version the retention of {@code FLIGHT_HST} deleted once its history is gone (D-103).
     */
    @Test
    void aFlightThatComesBackContinuesAboveEveryVersionItsFlidHadEvenAfterItsHistoryIsGone() {
        var store = store();
        var mailbox = new InMemoryMailbox();
        var pipeline = new PipelineHarness(mailbox, store, clock);
        var sis = new SisMessages();
        var versions = new ArrayList<Long>();
        Runnable deliver = () -> {
            mailbox.appendInbound(sis.schedule(fltr("3001", "11MAR240835", "FLNO", "CA" + versions.size())), null);
            pipeline.runUntilQuiet();
            versions.add(current("3001").get(0).stateVersion());
        };

        deliver.run();
        for (int life = 1; life <= 3; life++) {
            clock.tick(Duration.ofDays(5));
            assertThat(cleanup().runOnce()).as("life %s ends", life).isEqualTo(new FlightHistoryCleanup.Round(1, 1, 0));
            versions.add(-1L); // the tombstone took one version
            deliver.run();
        }
        assertThat(versions).containsExactly(1L, -1L, 3L, -1L, 5L, -1L, 7L);
        assertThat(probe.countFlightHistory(FlightId.of("3001"))).as("three archives, no collision").isEqualTo(3);

        clock.tick(Duration.ofDays(5));
        assertThat(cleanup().runOnce().archived()).isEqualTo(1); // archived at version 8
        clock.tick(Duration.ofDays(400));
        assertThat(store.housekeeping().deleteFlightHistoryBefore(clock.instant().minus(Duration.ofDays(365)), 100))
                .as("the whole history is forgotten").isEqualTo(4);
        assertThat(probe.countFlightHistory(FlightId.of("3001"))).isZero();

        deliver.run();
        assertThat(versions).last().as("above the forgotten version 8").isEqualTo(9L);
        mailbox.appendInbound(sis.schedule(fltr("3999", "11MAR240835", "FLNO", "NEW")), null);
        pipeline.runUntilQuiet();
        assertThat(current("3999").get(0).stateVersion())
                .as("a FLID never seen may have been forgotten: it starts above the forgotten versions too")
                .isEqualTo(9L);
    }

    private void saved(List<FlightState> flights) {
        store().inLockedTransaction(tx -> {
            tx.flights().save(flights, clock.instant());
            return null;
        });
    }
}
