package io.msgx.adapter.pg;

import io.msgx.pipeline.store.DatabaseArchiveContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The archive contract of the database stores on PostgreSQL, each test in a fresh schema. */
class PgArchiveTest extends DatabaseArchiveContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
