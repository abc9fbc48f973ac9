package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.FlightStoreContract;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.store.FlightSamples.everything;
import static org.assertj.core.api.Assertions.assertThat;

/** The FlightStore contract on PostgreSQL, each test in a fresh schema. */
class PgFlightStoreTest extends FlightStoreContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    /**
     * D-52: the next version of a flight, written as the pump writes it (its stored state known), changes no indexed
     * column of {@code FLIGHT_SCHD}, so PostgreSQL keeps it on its page and writes no index entry (a HOT update). Its
     * {@code UPDATED_AT} changes, and an index holding it would forbid that.
     */
    @Test
    void aFlightsNextVersionIsWrittenWithoutNewIndexEntries() throws SQLException {
        var first = everything("1001", "900");
        save(first);
        var next = new FlightState(first.flid(), FlightStatus.ACTIVE, first.stateVersion() + 1, first.operationDay(),
                first.lastMsgId() + 1, first.fields().with(FlightField.STND, "212"), first.lists());
        clock.tick(Duration.ofMinutes(1));

        try (var connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            var dsl = DSL.using(connection, SQLDialect.POSTGRES);
            new PgFlightStore(dsl).save(List.of(next), Map.of(first.flid(), first), clock.instant());
            // Counted for this transaction only, so no other test's updates and no statistics delay come into it.
            long updated = countOf(dsl, "SELECT pg_stat_get_xact_tuples_updated('flight_schd'::regclass)");
            long hot = countOf(dsl, "SELECT pg_stat_get_xact_tuples_hot_updated('flight_schd'::regclass)");
            connection.commit();

            assertThat(updated).as("rows of FLIGHT_SCHD updated").isEqualTo(1);
            assertThat(hot).as("of which stayed on their page, with no new index entry").isEqualTo(1);
        }
        assertThat(found("1001")).isEqualTo(next);
    }

    private static long countOf(org.jooq.DSLContext dsl, String sql) {
        return dsl.fetchSingle(sql).get(0, Long.class);
    }
}
