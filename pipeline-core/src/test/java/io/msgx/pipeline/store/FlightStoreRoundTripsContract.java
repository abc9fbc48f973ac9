package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.testing.jdbc.StatementCountingDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flight store's promise of a bounded number of round trips: reading or writing 200 flights costs the same
 * number of statements as one flight (one for the main rows, one per detail table), never one per flight.
 *
 * <p>A store's test class extends this and registers its test database; the contract counts the statements on a
 * store of its own on the database's pool.
 */
public abstract class FlightStoreRoundTripsContract extends StoreContract {

    private static final int FLIGHTS = 200;
    /** The eight resource tables, the four record tables, and the one route-point table for ROUT and ERUT. */
    private static final int DETAIL_TABLES = (int) Arrays.stream(FlightList.values())
            .filter(list -> list.group() != FlightList.Group.ROUTE).count() + 1;

    private PipelineStore store;
    private List<FlightState> flights;

    /** The store's pool, counting the statements prepared on it (a batch counts once). */
    private StatementCountingDataSource counted;

    @BeforeEach
    void manyFlights() {
        counted = new StatementCountingDataSource(database().dataSource());
        store = database().storeOn(counted, clock);
        flights = IntStream.rangeClosed(1, FLIGHTS)
                .mapToObj(n -> FlightSamples.everything(String.valueOf(10_000 + n), "900"))
                .toList();
        counted.reset();
    }

    @Test
    void savingManyFlightsCostsOneBatchForTheMainRowsAndTwoStatementsPerDetailTable() {
        save();

        assertThat(DETAIL_TABLES).isEqualTo(14);
        assertThat(counted.statements()).isLessThanOrEqualTo(1 + 2 * DETAIL_TABLES);
    }

    @Test
    void findingManyFlightsCostsOneQueryForTheMainRowsAndOnePerDetailTable() {
        save();
        counted.reset();

        var found = store.inTransaction(tx -> tx.flights().find(flights.stream().map(FlightState::flid).toList()));

        assertThat(found).containsExactlyInAnyOrderElementsOf(flights);
        assertThat(counted.statements()).isLessThanOrEqualTo(1 + DETAIL_TABLES);
    }

    @Test
    void findingTheChildrenOfAMasterWithManyCostsTheSame() {
        save();
        counted.reset();

        var children = store.inTransaction(tx -> tx.flights().findChildrenOf(List.of(FlightId.of("900"))));

        assertThat(children).hasSize(FLIGHTS);
        assertThat(counted.statements()).isLessThanOrEqualTo(1 + DETAIL_TABLES);
    }

    @Test
    void findingFlightsThatDoNotExistCostsOneQuery() {
        var found = store.inTransaction(tx -> tx.flights().find(List.of(FlightId.of("404"))));

        assertThat(found).isEmpty();
        assertThat(counted.statements()).isEqualTo(1);
    }

    @Test
    void stampingManyFlightsAndTheChildrenOfAMasterCostsAtMostAQueryPerSet() {
        save();
        counted.reset();

        var stamps = store.inTransaction(tx -> tx.flights().stampsOf(
                flights.stream().map(FlightState::flid).limit(FLIGHTS / 2).toList(), List.of(FlightId.of("900"))));

        assertThat(stamps).hasSize(FLIGHTS);
        assertThat(counted.statements()).isLessThanOrEqualTo(2);
    }

    private void save() {
        store.inTransaction(tx -> {
            tx.flights().save(flights, clock.instant());
            return null;
        });
    }
}
