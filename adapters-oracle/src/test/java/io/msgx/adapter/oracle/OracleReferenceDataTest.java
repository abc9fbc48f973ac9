package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.ReferenceDataContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The reference data contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleReferenceDataTest extends ReferenceDataContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
