package io.msgx.adapter.pg;

import io.msgx.pipeline.store.FlightStoreRoundTripsContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The round-trip contract on PostgreSQL, each test in a fresh schema, statements counted on the store's pool. */
class PgFlightStoreRoundTripsTest extends FlightStoreRoundTripsContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
