package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.BackfillContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backfill contract on Oracle, each test in a fresh schema. */
class OracleBackfillTest extends BackfillContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
