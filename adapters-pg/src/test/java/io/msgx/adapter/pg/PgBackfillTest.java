package io.msgx.adapter.pg;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.BackfillContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backfill contract on PostgreSQL, each test in a fresh schema. */
class PgBackfillTest extends BackfillContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
    private final PgProbe probe = new PgProbe(database);

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Override
    protected void clearBackfillNextAt(long msgId) {
        probe.clearBackfillNextAt(msgId);
    }
}
