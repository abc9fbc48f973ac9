package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same archive contract as the database stores. */
class InMemoryArchiveTest extends ArchiveContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }

    @Override
    protected long countProcessingHistory(long msgId) {
        return store.processingHistoryCount(msgId);
    }
}
