package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.ScheduleLogContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ScheduleLog contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh schema. */
class OracleScheduleLogTest extends ScheduleLogContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
}
