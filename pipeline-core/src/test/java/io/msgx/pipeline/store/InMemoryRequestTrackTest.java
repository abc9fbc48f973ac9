package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same request-tracking contract as the database stores. */
class InMemoryRequestTrackTest extends RequestTrackContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }
}
