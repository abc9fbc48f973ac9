package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.HousekeepingContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The housekeeping contract on PostgreSQL, each test in a fresh schema, plus the schema's rule on closed requests. */
class PgHousekeepingTest extends HousekeepingContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
    private final PgProbe probe = new PgProbe(database);

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Override
    protected long countProcessingHistory(long msgId) {
        return probe.countProcessingHistory(msgId);
    }

    @Override
    protected long countFlightHistory(FlightId flid) {
        return probe.countFlightHistory(flid);
    }

    @Override
    protected long insertRequest(String status, Instant closedAt) {
        return probe.insertRequest(status, closedAt);
    }

    @Override
    protected boolean requestExists(long id) {
        return probe.requestExists(id);
    }

    @Test
    void aClosedRequestWithoutCloseTimeIsRefused() {
        assertThatThrownBy(() -> insertRequest("EXPIRED", null))
                .hasMessageContaining("ck_req_track_closed_at");
    }
}
