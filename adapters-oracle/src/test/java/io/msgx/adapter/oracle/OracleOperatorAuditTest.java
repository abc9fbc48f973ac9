package io.msgx.adapter.oracle;

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
}
