package io.msgx.adapter.oracle;

import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.store.DatabaseFlightHistoryContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The flight history contract of the database stores on Oracle, each test in a fresh schema, plus what this adapter
 * adds: an archive refused as a duplicate rolls the whole transaction back even when the work catches the refusal
 * (Oracle keeps a transaction after a failed statement).
 */
class OracleFlightHistoryTest extends DatabaseFlightHistoryContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    @Test
    void aDuplicateArchiveCaughtByTheWorkStillRollsBackTheDelete() {
        var flight = plain("1001");
        store().inLockedTransaction(tx -> {
            tx.flights().save(List.of(flight), clock.instant());
            tx.flightHistory().archive(flight, "{\"n\":1}", clock.instant());
            return null;
        });

        assertThatThrownBy(() -> store().inLockedTransaction(tx -> {
            try {
                tx.flightHistory().archive(flight, "{\"n\":2}", clock.instant());
            } catch (IllegalStateException swallowed) {
                // a careless caller carries on
            }
            tx.flightHistory().delete(flight.flid());
            return null;
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("rolled back");

        List<FlightState> kept = store().inTransaction(tx -> tx.flights().find(ids("1001")));
        assertThat(kept).containsExactly(flight);
        assertThat(probe.flightHistorySnapshot(flight.flid(), flight.stateVersion())).contains("{\"n\":1}");
    }
}
