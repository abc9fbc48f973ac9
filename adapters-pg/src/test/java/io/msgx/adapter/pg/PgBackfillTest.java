package io.msgx.adapter.pg;

import io.msgx.pipeline.store.BackfillContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The backfill contract on PostgreSQL, each test in a fresh schema. */
class PgBackfillTest extends BackfillContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
