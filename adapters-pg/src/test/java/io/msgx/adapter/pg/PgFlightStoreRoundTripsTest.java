package io.msgx.adapter.pg;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.FlightStoreRoundTripsContract;
import io.msgx.testing.jdbc.StatementCountingDataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The round-trip contract on PostgreSQL, each test in a fresh schema, statements counted on the store's pool. */
class PgFlightStoreRoundTripsTest extends FlightStoreRoundTripsContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
    private StatementCountingDataSource counted;

    @Override
    protected PipelineStore store() {
        counted = new StatementCountingDataSource(database.dataSource());
        return PgPipelineStore.create(counted, clock);
    }

    @Override
    protected int statements() {
        return counted.statements();
    }

    @Override
    protected void resetStatements() {
        counted.reset();
    }
}
