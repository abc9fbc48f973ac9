package io.msgx.adapter.pg;

import io.msgx.pipeline.store.InboxCursorContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The inbox cursor contract on PostgreSQL, each test in a fresh schema. */
class PgInboxCursorTest extends InboxCursorContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
