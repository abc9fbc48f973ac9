package io.msgx.adapter.pg;

import io.msgx.pipeline.store.ProcStatesContract;
import io.msgx.pipeline.store.PipelineStore;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ProcStates contract on PostgreSQL, each test in a fresh schema. */
class PgProcStatesTest extends ProcStatesContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }
}
