package io.msgx.adapter.oracle;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.HousekeepingContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The housekeeping contract on Oracle, each test in a fresh schema, plus the schema's rule on closed requests. */
class OracleHousekeepingTest extends HousekeepingContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final OracleProbe probe = new OracleProbe(database);

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
        assertThat(OracleProbe.refusal(() -> insertRequest("EXPIRED", null))).containsIgnoringCase("CK_REQ_TRACK_CLOSED_AT");
    }
}
