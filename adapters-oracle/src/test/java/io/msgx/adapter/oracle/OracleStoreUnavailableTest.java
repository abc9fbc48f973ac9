package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A database that cannot be reached, a pool that was closed, or a lock wait that timed out is
 * {@link StoreUnavailableException} naming the operation (retried by the caller); any other SQL error is a defect and
 * is not disguised as unavailability.
 */
class OracleStoreUnavailableTest {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    private final SettableClock clock = SettableClock.atExampleDay();

    @Test
    void aClosedPoolIsUnavailableNamingTheOperation() {
        var pool = database.pool();
        var store = OraclePipelineStore.create(pool, clock);
        store.procStates().insertIfAbsent(17, null, clock.instant());
        pool.close();

        assertThatThrownBy(() -> store.procStates().find(17))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("message 17");
        assertThatThrownBy(() -> store.inboxCursor().load())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("inbox cursor");
        assertThatThrownBy(() -> store.inTransaction(tx -> "never runs"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("transaction");
        assertThatThrownBy(() -> OracleSchema.requireCurrent(pool))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("schema version");
    }

    @Test
    void anUnreachableDatabaseIsUnavailable() {
        var config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(database.isRealOracle() ? "jdbc:oracle:thin:@127.0.0.1:1:XE" : "jdbc:h2:tcp://127.0.0.1:1/mem:nowhere");
        config.setUsername("nobody");
        config.setPassword("none");
        config.setConnectionTimeout(1_000);
        config.setInitializationFailTimeout(-1);
        try (var pool = new com.zaxxer.hikari.HikariDataSource(config)) {
            PipelineStore store = OraclePipelineStore.create(pool, clock);

            assertThatThrownBy(() -> store.outbox().deliveryBacklog())
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("delivery backlog");
        }
    }

    @Test
    void aLockWaitThatTimesOutIsUnavailable() throws Exception {
        var store = database.store(clock);
        var impatient = OraclePipelineStore.create(database.dataSource(), clock, Duration.ofSeconds(1));
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var holder = Executors.newSingleThreadExecutor();
        try {
            var first = holder.submit(() -> store.inLockedTransaction(tx -> {
                holding.countDown();
                try {
                    return release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }));
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> impatient.inLockedTransaction(tx -> "never runs"))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("PIPELINE_LOCK");

            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
            String entered = impatient.inLockedTransaction(tx -> "entered");
            assertThat(entered).isEqualTo("entered");
        } finally {
            release.countDown();
            holder.shutdownNow();
        }
    }

    @Test
    void aDefectIsNotMistakenForUnavailability() {
        var store = database.store(clock);
        store.procStates().insertIfAbsent(17, null, clock.instant());
        var tooLong = "K".repeat(500); // IDENTITY_KEY is 200 wide: a codec defect, not an outage

        assertThatThrownBy(() -> store.procStates().bindIdentity(17, tooLong, clock.instant()))
                .isInstanceOf(OracleStoreException.class)
                .isNotInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("message 17");
    }

    @Test
    void aLockWaitMustBePositive() {
        assertThatThrownBy(() -> OraclePipelineStore.create(database.dataSource(), clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
