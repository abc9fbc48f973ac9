package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link FlightHistoryContract}, plus what the database stores add: the cleanup's writes refuse to run outside a
 * locked transaction (INV-18). Apart from {@link FlightHistoryContract} since an in-memory fake,
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
        assertThat(countFlightHistory(flight.flid())).isZero();
    }
}
