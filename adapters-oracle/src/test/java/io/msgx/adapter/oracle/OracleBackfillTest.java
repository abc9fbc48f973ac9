package io.msgx.adapter.oracle;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.BackfillContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backfill contract on Oracle, each test in a fresh schema. */
class OracleBackfillTest extends BackfillContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final OracleProbe probe = new OracleProbe(database);

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Override
    protected void clearBackfillNextAt(long msgId) {
        probe.clearBackfillNextAt(msgId);
    }
}
