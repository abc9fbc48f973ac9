package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.InboxCursorContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The inbox cursor contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleInboxCursorTest extends InboxCursorContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
