package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.ReplayContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The replay contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleReplayTest extends ReplayContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
