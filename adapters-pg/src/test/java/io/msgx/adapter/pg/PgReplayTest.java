package io.msgx.adapter.pg;

import io.msgx.pipeline.store.ReplayContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The replay contract on PostgreSQL, each test in a fresh schema. */
class PgReplayTest extends ReplayContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
