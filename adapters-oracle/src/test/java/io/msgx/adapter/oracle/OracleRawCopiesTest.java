package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.RawCopiesContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The raw copies contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleRawCopiesTest extends RawCopiesContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
