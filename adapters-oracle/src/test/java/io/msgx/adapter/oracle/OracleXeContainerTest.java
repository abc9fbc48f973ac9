package io.msgx.adapter.oracle;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A smoke test on a real Oracle XE 11g ({@value OracleXeContainer#IMAGE}) started by Testcontainers: the scripts
 * apply on 11g, the version check passes, a locked transaction commits, the lease is exclusive. Skipped when no
 * Docker engine answers (as on the build machines). The whole contract suite runs on the container with
 * {@code MSGX_TEST_ORACLE=container} (see the README).
 */
class OracleXeContainerTest {

    @Test
    void theSchemaAndTheStoreWorkOnOracle11g() {
        assumeTrue(OracleXeContainer.dockerAvailable(), "no Docker engine answers here: the Oracle XE 11g container "
                + "cannot start (run with MSGX_TEST_ORACLE_URL against a real Oracle instead)");
        try (var oracle = OracleXeContainer.create()) {
            oracle.start();
            var config = new HikariConfig();
            config.setJdbcUrl(oracle.getJdbcUrl());
            config.setUsername(oracle.getUsername());
            config.setPassword(oracle.getPassword());
            config.setMaximumPoolSize(3);
            try (var pool = new HikariDataSource(config);
                 var lease = new io.msgx.adapter.jdbc.JdbcEpochLease(pool, OracleDialect.ORACLE,
                         new io.msgx.adapter.jdbc.JdbcEpochLease.Settings("LEADER", "first",
                                 java.time.Duration.ofSeconds(30), java.time.Duration.ofSeconds(2)), System::nanoTime);
                 var standby = new io.msgx.adapter.jdbc.JdbcEpochLease(pool, OracleDialect.ORACLE,
                         new io.msgx.adapter.jdbc.JdbcEpochLease.Settings("LEADER", "second",
                                 java.time.Duration.ofSeconds(30), java.time.Duration.ofSeconds(2)), System::nanoTime)) {
                assertThat(OracleSchema.migrate(pool)).isEqualTo(OracleSchema.CURRENT_VERSION);
                assertThat(OracleSchema.migrate(pool)).isZero();
                OracleSchema.requireCurrent(pool);

                var clock = SettableClock.atExampleDay();
                var store = OraclePipelineStore.create(pool, clock);
                store.inLockedTransaction(tx -> {
                    tx.queue().insertIfAbsent(17, null, clock.instant());
                    return tx.queue().finish(17, MessageEnd.succeeded("applied"), clock.instant());
                });
                assertThat(store.queue().find(17)).isPresent();

                assertThat(lease.tryAcquire()).isTrue();
                assertThat(standby.tryAcquire()).isFalse();
            }
        }
    }
}
