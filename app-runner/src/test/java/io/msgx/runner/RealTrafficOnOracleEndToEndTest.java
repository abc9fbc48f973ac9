package io.msgx.runner;

import io.msgx.runner.config.RunnerConfig.StoreKind;
import io.msgx.testing.Slow;

/**
 * {@link RealTrafficEndToEndTest} on the Oracle adapter: the real-form corpus from a MariaDB mailbox through the
 * Oracle store (H2 in {@code MODE=Oracle} here, a real Oracle when {@code MSGX_TEST_ORACLE_URL} is set) to a real KRaft
 * broker; the same assertions, only the store differs.
 */
@Slow
class RealTrafficOnOracleEndToEndTest extends RealTrafficEndToEndTest {

    @Override
    RealServices services() {
        return RealServices.on(StoreKind.ORACLE);
    }
}
