package io.msgx.adapter.pg;

import io.msgx.pipeline.store.ScheduleLogContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ScheduleLog contract on PostgreSQL, each test in a fresh schema. */
class PgScheduleLogTest extends ScheduleLogContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
