package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.pipeline.store.FlightStoreContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

import static io.msgx.pipeline.store.FlightSamples.everything;
import static org.assertj.core.api.Assertions.assertThat;

/** The FlightStore contract on PostgreSQL, each test in a fresh schema. */
class PgFlightStoreTest extends FlightStoreContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    /**
     * D-52: the next version of a flight, written as the pump writes it (its stored state known), changes no indexed
     * column of {@code FLIGHT_SCHD}, so PostgreSQL keeps it on its page and writes no index entry (a HOT update). Its
     * {@code UPDATED_AT} changes, and an index holding it would forbid that. The store runs on a data source that
     * remembers the connection it lent last, the transaction's, so the test reads that transaction's own counters.
     */
    @Test
    void aFlightsNextVersionIsWrittenWithoutNewIndexEntries() {
        var first = everything("1001", "900");
        save(first);
        var next = new FlightState(first.flid(), FlightStatus.ACTIVE, first.stateVersion() + 1, first.operationDay(),
                first.lastMsgId() + 1, first.fields().with(FlightField.STND, "212"), first.lists());
        clock.tick(Duration.ofMinutes(1));
        var lent = new AtomicReference<Connection>();

        var counts = PgPipelineStore.create(remembering(database.dataSource(), lent), clock).inTransaction(tx -> {
            tx.flights().save(List.of(next), Map.of(first.flid(), first), clock.instant());
            // Counted for this transaction only, so no other test's updates and no statistics delay come into it.
            return List.of(countOf(lent.get(), "SELECT pg_stat_get_xact_tuples_updated('flight_schd'::regclass)"),
                    countOf(lent.get(), "SELECT pg_stat_get_xact_tuples_hot_updated('flight_schd'::regclass)"));
        });

        assertThat(counts.get(0)).as("rows of FLIGHT_SCHD updated").isEqualTo(1);
        assertThat(counts.get(1)).as("of which stayed on their page, with no new index entry").isEqualTo(1);
        assertThat(found("1001")).isEqualTo(next);
    }

    /** {@code dataSource}, keeping in {@code lent} the last connection it lent. */
    private static DataSource remembering(DataSource dataSource, AtomicReference<Connection> lent) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[]{DataSource.class},
                (proxy, method, args) -> {
                    try {
                        var result = method.invoke(dataSource, args);
                        if (result instanceof Connection connection) {
                            lent.set(connection);
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static long countOf(Connection connection, String sql) {
        try (var statement = connection.createStatement(); var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
