package io.msgx.adapter.pg;

import io.msgx.pipeline.store.FlightStoreContract;
import io.msgx.pipeline.store.PipelineStore;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The FlightStore contract on PostgreSQL, each test in a fresh schema. */
class PgFlightStoreTest extends FlightStoreContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }
}
