package io.msgx.runner;

import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.request.ResponseFlowContract;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every request and answer path on the real parts: requests written to MariaDB's {@code COUTMSGS}, answers read
 * from its {@code CMINMSGS}, {@code REQ_TRACK}, flights and {@code REF_MASTER} in PostgreSQL. Exact and degraded
 * matches, the unmatched, expired, too-early and late answers, for schedules and reference data.
 */
@Slow
class RequestsOnRealServicesTest extends ResponseFlowContract {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Override
    protected Mailbox mailbox() {
        return services.mailbox();
    }

    @Override
    protected PipelineStore store() {
        return services.store(clock);
    }
}
