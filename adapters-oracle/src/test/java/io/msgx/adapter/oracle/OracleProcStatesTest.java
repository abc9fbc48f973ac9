package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.ProcStatesContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ProcStates contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleProcStatesTest extends ProcStatesContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
