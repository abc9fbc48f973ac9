package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.DatabaseArchiveContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The archive contract of the database stores on Oracle, each test in a fresh schema. */
class OracleArchiveTest extends DatabaseArchiveContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
