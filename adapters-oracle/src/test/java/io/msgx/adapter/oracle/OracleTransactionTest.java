package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.DatabaseTransactionContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The transaction contract of the database stores on Oracle, each test in a fresh schema. */
class OracleTransactionTest extends DatabaseTransactionContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
