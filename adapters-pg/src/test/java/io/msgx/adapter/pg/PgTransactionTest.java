package io.msgx.adapter.pg;

import io.msgx.pipeline.store.DatabaseTransactionContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The transaction contract of the database stores on PostgreSQL, each test in a fresh schema. */
class PgTransactionTest extends DatabaseTransactionContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
