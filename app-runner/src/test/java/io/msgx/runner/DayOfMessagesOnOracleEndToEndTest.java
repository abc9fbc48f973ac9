package io.msgx.runner;

import io.msgx.runner.config.RunnerConfig.StoreKind;
import io.msgx.testing.Slow;

/**
 * {@link DayOfMessagesEndToEndTest} on the Oracle adapter: the same day through the real MariaDB mailbox, the same
 * assertions, the store being {@code OraclePipelineStore} on H2 in {@code MODE=Oracle} (a real Oracle when
 * {@code MSGX_TEST_ORACLE_URL} is set, see adapters-oracle/README.md).
 */
@Slow
class DayOfMessagesOnOracleEndToEndTest extends DayOfMessagesEndToEndTest {

    @Override
    RealServices services() {
        return RealServices.on(StoreKind.ORACLE);
    }
}
