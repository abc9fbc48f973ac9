package io.msgx.pipeline.request;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;

/** The request and answer paths over the in-memory mailbox and the H2 test store. */
class ResponseFlowTest extends ResponseFlowContract {

    @Override
    protected Mailbox mailbox() {
        return new InMemoryMailbox();
    }

    @Override
    protected PipelineStore store() {
        return H2TestStore.fresh();
    }
}
