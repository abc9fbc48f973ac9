package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.FlightStoreRoundTripsContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The round-trip contract on Oracle, each test in a fresh schema, statements counted on the store's pool. */
class OracleFlightStoreRoundTripsTest extends FlightStoreRoundTripsContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
