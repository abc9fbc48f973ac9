package io.msgx.pipeline.request;

import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.InMemoryPipelineStore;

/** The request and answer paths over the in-memory fakes. */
class ResponseFlowTest extends ResponseFlowContract {

    @Override
    protected Mailbox mailbox() {
        return new InMemoryMailbox();
    }

    @Override
    protected PipelineStore store() {
        return new InMemoryPipelineStore();
    }
}
