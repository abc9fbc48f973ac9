package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same housekeeping contract as the database stores (it tracks no requests). */
class InMemoryHousekeepingTest extends HousekeepingContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }

    @Override
    protected long countProcessingHistory(long msgId) {
        return store.processingHistoryCount(msgId);
    }

    @Override
    protected long countFlightHistory(FlightId flid) {
        return store.flightHistoryCount(flid);
    }
}
