package io.msgx.runner.console;

import io.msgx.adapter.oracle.OracleTestDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDay;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.store.IdentityBinder;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store look-ups the console added to the ports — a message by business identity, flights by number and day,
 * a flight's notifications newest first — on PostgreSQL and on the Oracle adapter (H2 in Oracle mode by default).
 */
class ConsoleLookupsTest {

    private static final SettableClock CLOCK = SettableClock.atExampleDay();
    private static final LocalDate DAY = LocalDate.of(2024, 3, 11);

    @Nested
    class OnPostgres {
        @RegisterExtension
        final PgTestDatabase db = new PgTestDatabase();

        @Test
        void lookups() {
            assertLookups(db.store(CLOCK));
        }
    }

    @Nested
    class OnOracle {
        @RegisterExtension
        final OracleTestDatabase db = new OracleTestDatabase();

        @Test
        void lookups() {
            assertLookups(db.store(CLOCK));
        }
    }

    static void assertLookups(PipelineStore store) {
        var now = CLOCK.instant();
        store.queue().insertIfAbsent(41, null, now);
        store.queue().insertIfAbsent(42, null, now);
        IdentityBinder.bind(store, 42, "AODB|SCHD|FULL|7", now);
        assertThat(store.identities().findByIdentity("AODB|SCHD|FULL|7")).hasValueSatisfying(r ->
                assertThat(r.msgId()).isEqualTo(42));
        assertThat(store.identities().findByIdentity("AODB|SCHD|FULL|8")).isEmpty();

        store.inLockedTransaction(tx -> {
            tx.flights().save(List.of(flight("1001", "CA1405", DAY, 1), flight("1009", "CA1405", DAY.plusDays(1), 1),
                    flight("2001", "HU7181", DAY, 1)), now);
            for (long version = 1; version <= 3; version++) {
                tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of("1001"),
                        OutboxEvent.EventType.UPSERT, version, 40 + version, "{\"v\":" + version + "}", now));
            }
            tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of("2001"),
                    OutboxEvent.EventType.UPSERT, 1, 50, "{}", now));
            return null;
        });
        List<FlightId> onTheDay = store.flightQueries().findByFlightNumber("CA1405", DAY);
        List<FlightId> anyDay = store.flightQueries().findByFlightNumber("CA1405", null);
        List<FlightId> none = store.flightQueries().findByFlightNumber("MU1", DAY);
        assertThat(onTheDay).containsExactly(FlightId.of("1001"));
        assertThat(anyDay).containsExactly(FlightId.of("1001"), FlightId.of("1009"));
        assertThat(none).isEmpty();
        var changes = store.inTransaction(tx -> tx.notifications().notificationsOf(FlightId.of("1001"), 2));
        assertThat(changes).extracting(e -> e.event().stateVersion()).containsExactly(3L, 2L);
        assertThat(changes).extracting(e -> e.event().msgId()).containsExactly(43L, 42L);
    }

    private static FlightState flight(String flid, String flno, LocalDate day, long version) {
        return new FlightState(FlightId.of(flid), FlightStatus.ACTIVE, version, OperationDay.of(day), 40,
                FlightFields.of(Map.of(FlightField.FLNO, flno, FlightField.SODT, "11MAR240835")), FlightLists.empty());
    }
}
