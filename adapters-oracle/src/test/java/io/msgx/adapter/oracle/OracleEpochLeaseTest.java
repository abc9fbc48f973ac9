package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.EpochLeaseContract;
import io.msgx.adapter.jdbc.JdbcPipelineStore;
import io.msgx.adapter.jdbc.SqlDialect;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.sql.DataSource;

/**
 * The leader lease's contract on the Oracle store (H2 in Oracle mode in the build; a real Oracle with
 * {@code MSGX_TEST_ORACLE_URL}), each test on an emptied schema. Oracle has no shared row lock, so the fence's lock is
 * exclusive and fenced transactions queue on the lease row; what ends a frozen holder's transaction is the server's
 * (Resource Manager's {@code MAX_IDLE_BLOCKER_TIME}, dead connection detection), not a session setting (D-108).
 */
class OracleEpochLeaseTest extends EpochLeaseContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    @Override
    protected DataSource dataSource() {
        return database.dataSource();
    }

    @Override
    protected SqlDialect dialect() {
        return OracleDialect.ORACLE;
    }

    @Override
    protected JdbcPipelineStore<?> store() {
        return (JdbcPipelineStore<?>) database.store(SettableClock.atExampleDay());
    }
}
