package io.msgx.adapter.pg;

import io.msgx.pipeline.store.OutboxContract;
import io.msgx.pipeline.store.PipelineStore;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Outbox contract on PostgreSQL, each test in a fresh schema. */
class PgOutboxTest extends OutboxContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }
}
