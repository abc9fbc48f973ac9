package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same flight history contract as the database stores. */
class InMemoryFlightHistoryTest extends FlightHistoryContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }

    @Override
    protected long countFlightHistory(FlightId flid) {
        return store.flightHistoryCount(flid);
    }
}
