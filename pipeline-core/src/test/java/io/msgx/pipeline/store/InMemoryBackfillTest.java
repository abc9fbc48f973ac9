package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;

/** The in-memory fake keeps the same backfill contract as the database stores. */
class InMemoryBackfillTest extends BackfillContract {

    private final InMemoryPipelineStore store = new InMemoryPipelineStore();

    @Override
    protected PipelineStore store() {
        return store;
    }

    /** The fake takes a null next time from a failed attempt; the extra attempt does not matter where this is used. */
    @Override
    protected void clearBackfillNextAt(long msgId) {
        store.backfillMarks().backfillFailed(msgId, null, clock.instant());
    }
}
