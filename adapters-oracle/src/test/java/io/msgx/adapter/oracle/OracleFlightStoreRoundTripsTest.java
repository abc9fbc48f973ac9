package io.msgx.adapter.oracle;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.store.FlightSamples;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flight store's promise of a bounded number of round trips: reading or writing 200 flights costs the same
 * number of statements as one flight (one for the main rows, one per detail table), never one per flight.
 */
class OracleFlightStoreRoundTripsTest {

    private static final int FLIGHTS = 200;
    /** The eight resource tables, the two record tables, and the one route-point table for ROUT and ERUT. */
    private static final int DETAIL_TABLES = (int) Arrays.stream(FlightList.values())
            .filter(list -> list.group() != FlightList.Group.ROUTE).count() + 1;

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    private final SettableClock clock = SettableClock.atExampleDay();
    private StatementCountingDataSource counted;
    private PipelineStore store;
    private List<FlightState> flights;

    @BeforeEach
    void saveManyFlights() {
        counted = new StatementCountingDataSource(database.dataSource());
        store = OraclePipelineStore.create(counted, clock);
        flights = IntStream.rangeClosed(1, FLIGHTS)
                .mapToObj(n -> FlightSamples.everything(String.valueOf(10_000 + n), "900"))
                .toList();
    }

    @Test
    void savingManyFlightsCostsOneBatchForTheMainRowsAndTwoStatementsPerDetailTable() {
        store.inTransaction(tx -> {
            tx.flights().save(flights, clock.instant());
            return null;
        });

        assertThat(DETAIL_TABLES).isEqualTo(11);
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

    private void save() {
        store.inTransaction(tx -> {
            tx.flights().save(flights, clock.instant());
            return null;
        });
    }
}
