package io.msgx.adapter.pg;

import io.msgx.pipeline.store.DatabaseFlightHistoryContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The flight history contract of the database stores on PostgreSQL, each test in a fresh schema. */
class PgFlightHistoryTest extends DatabaseFlightHistoryContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
