package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same raw copies contract as the database stores. */
class InMemoryRawCopiesTest extends RawCopiesContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }
}
