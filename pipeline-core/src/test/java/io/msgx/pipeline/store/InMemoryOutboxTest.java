package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same contract as the database stores. */
class InMemoryOutboxTest extends OutboxContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }
}
