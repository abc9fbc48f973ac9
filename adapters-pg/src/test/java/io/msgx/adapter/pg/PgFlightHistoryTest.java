package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.DatabaseFlightHistoryContract;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

/** The flight history contract of the database stores on PostgreSQL, each test in a fresh schema. */
class PgFlightHistoryTest extends DatabaseFlightHistoryContract {

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
}
