package io.msgx.tools.simulator;

import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.oracle.OracleTestDatabase;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A simulated airport day written into the real MariaDB mailbox ({@code CMINMSGS}, as the AODB writes it) while the
 * pipeline runs on the Oracle adapter (H2 in {@code MODE=Oracle} here, a real Oracle when {@code MSGX_TEST_ORACLE_URL}
 * is set): the same run and the same assertions as {@link SimulatedDayEndToEndTest} on the in-memory mailbox and the H2 test store.
 */
class SimulatedDayOnOracleEndToEndTest {

    private static final ZoneId AIRPORT = ZoneId.of("Asia/Shanghai");

    @RegisterExtension
    final OracleTestDatabase oracle = new OracleTestDatabase();

    private TestMailboxDatabase mariadb;

    @BeforeEach
    void mailbox() throws SQLException {
        mariadb = TestMailboxDatabase.create();
        try (var connection = mariadb.connect()) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
    }

    @AfterEach
    void dropMailbox() {
        mariadb.close();
    }

    @Test
    void a_day_of_60_flights_through_the_real_mailbox_ends_as_simulated_on_oracle() throws Exception {
        var day = new AirportDaySimulator().generate(SimulationSettings.of(2024, 60, LocalDate.of(2024, 3, 11)));
        var mailbox = new JdbcMailbox(mariadb.dataSource(), MailboxSchema.defaults(), AIRPORT, 10);
        var clock = SettableClock.atExampleDay();

        var outcome = SimulatedDayEndToEndTest.run(day, 150, mailbox, oracle.store(clock), clock, this::flidsInStore);

        SimulatedDayEndToEndTest.assertEndsAsSimulated(day, outcome);
        assertThat(outcome.records()).hasSize(day.messages().size());
        assertThat(day.expectations().messagesByKind()).allSatisfy((kind, count) -> assertThat(count).as(kind.name()).isPositive());
    }

    private List<FlightId> flidsInStore() {
        var flids = new ArrayList<FlightId>();
        try (var connection = oracle.dataSource().getConnection();
             var rows = connection.createStatement().executeQuery("SELECT FLID FROM FLIGHT_SCHD")) {
            while (rows.next()) {
                flids.add(FlightId.of(rows.getString(1)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return flids;
    }
}
