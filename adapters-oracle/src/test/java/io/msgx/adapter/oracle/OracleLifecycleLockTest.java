package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.LifecycleLockContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lifecycle lock on Oracle (H2 in Oracle mode by default): the PIPELINE_LOCK row LIFECYCLE. */
class OracleLifecycleLockTest extends LifecycleLockContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
