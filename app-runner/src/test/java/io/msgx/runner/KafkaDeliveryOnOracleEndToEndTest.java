package io.msgx.runner;

import io.msgx.runner.config.RunnerConfig.StoreKind;
import io.msgx.testing.Slow;

/**
 * {@link KafkaDeliveryEndToEndTest} on the Oracle adapter: MariaDB mailbox → pipeline → Oracle store (H2 in
 * {@code MODE=Oracle} here, a real Oracle when {@code MSGX_TEST_ORACLE_URL} is set) → dispatcher → a real KRaft
 * broker; the same assertions, only the store differs.
 */
@Slow
class KafkaDeliveryOnOracleEndToEndTest extends KafkaDeliveryEndToEndTest {

    @Override
    RealServices services() {
        return RealServices.on(StoreKind.ORACLE);
    }
}
