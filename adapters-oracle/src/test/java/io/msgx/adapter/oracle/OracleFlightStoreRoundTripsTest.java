package io.msgx.adapter.oracle;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.FlightStoreRoundTripsContract;
import io.msgx.testing.jdbc.StatementCountingDataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The round-trip contract on Oracle, each test in a fresh schema, statements counted on the store's pool. */
class OracleFlightStoreRoundTripsTest extends FlightStoreRoundTripsContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private StatementCountingDataSource counted;

    @Override
    protected PipelineStore store() {
        counted = new StatementCountingDataSource(database.dataSource());
        return OraclePipelineStore.create(counted, clock);
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
