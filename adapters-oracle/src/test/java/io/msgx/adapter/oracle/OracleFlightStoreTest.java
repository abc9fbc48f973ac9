package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.FlightStoreContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The FlightStore contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleFlightStoreTest extends FlightStoreContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
