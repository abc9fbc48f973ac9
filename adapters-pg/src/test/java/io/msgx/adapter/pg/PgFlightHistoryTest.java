package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.store.FlightHistoryContract;
import io.msgx.pipeline.store.PipelineStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Optional;

import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The flight history contract on PostgreSQL, each test in a fresh schema, plus what this adapter adds: the cleanup's
 * writes refuse to run outside a locked transaction (INV-18).
 */
class PgFlightHistoryTest extends FlightHistoryContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
    private final PgProbe probe = new PgProbe(database);

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Override
    protected long countFlightHistory(FlightId flid) {
        return probe.countFlightHistory(flid);
    }

    @Override
    protected Optional<String> flightHistorySnapshot(FlightId flid, long stateVersion) {
        return probe.flightHistorySnapshot(flid, stateVersion);
    }

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
