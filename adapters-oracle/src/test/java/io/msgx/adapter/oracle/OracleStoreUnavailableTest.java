package io.msgx.adapter.oracle;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.StoreUnavailableContract;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The unavailability contract on Oracle (a lock wait bounded by the store's own {@code FOR UPDATE WAIT}), plus what
 * this adapter adds: a pool that was closed is unavailable too, the schema check included, and a lock wait must be
 * positive; a defect is an {@link StoreDefectException} naming the operation.
 */
class OracleStoreUnavailableTest extends StoreUnavailableContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private HikariDataSource unreachable;

    @AfterEach
    void closeUnreachablePool() {
        if (unreachable != null) {
            unreachable.close();
        }
    }

    @Override
    protected PipelineStore unreachableStore() {
        var config = new HikariConfig();
        config.setJdbcUrl(database.isRealOracle() ? "jdbc:oracle:thin:@127.0.0.1:1:XE" : "jdbc:h2:tcp://127.0.0.1:1/mem:nowhere");
        config.setUsername("nobody");
        config.setPassword("none");
        config.setConnectionTimeout(1_000);
        config.setInitializationFailTimeout(-1);
        unreachable = new HikariDataSource(config);
        return OraclePipelineStore.create(unreachable, clock);
    }

    /** Gives up waiting for {@code PIPELINE_LOCK} after a second. */
    @Override
    protected PipelineStore impatientStore() {
        return OraclePipelineStore.create(database.dataSource(), clock, Duration.ofSeconds(1));
    }

    /** A defect is an {@link StoreDefectException} naming the operation. */
    @Override
    protected void assertDefect(Throwable defect) {
        assertThat(defect).isInstanceOf(StoreDefectException.class).hasMessageContaining("message 17");
    }

    @Test
    void aClosedPoolIsUnavailableNamingTheOperation() {
        var pool = database.pool();
        var store = OraclePipelineStore.create(pool, clock);
        store.queue().insertIfAbsent(17, null, clock.instant());
        pool.close();

        assertUnavailableNamingTheOperation(store);
        assertThatThrownBy(() -> OracleSchema.requireCurrent(pool))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("schema version");
    }

    @Test
    void aLockWaitMustBePositive() {
        assertThatThrownBy(() -> OraclePipelineStore.create(database.dataSource(), clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
