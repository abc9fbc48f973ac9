package io.msgx.pipeline.store;

/** The in-memory fake keeps the same reference data contract as the database stores. */
class InMemoryReferenceDataTest extends ReferenceDataContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }
}
