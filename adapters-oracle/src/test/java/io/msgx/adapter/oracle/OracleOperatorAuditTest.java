package io.msgx.adapter.oracle;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.OperatorAuditContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator audit contract on Oracle (H2 in Oracle mode in the default build; a real Oracle when one is given), each
 * test in a fresh schema. Oracle has no trigger refusing an UPDATE (the scripts hold no PL/SQL, D-139): the
 * application's statements are what keep the trail append-only there.
 */
class OracleOperatorAuditTest extends OperatorAuditContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final OracleProbe probe = new OracleProbe(database);

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Override
    protected void refuseAuditRowsOf(String operator) {
        probe.sql(session -> session.update("ALTER TABLE OPERATOR_AUDIT ADD CONSTRAINT CK_TEST_REFUSED CHECK (OPERATOR <> '"
                + operator + "')"));
    }
}
