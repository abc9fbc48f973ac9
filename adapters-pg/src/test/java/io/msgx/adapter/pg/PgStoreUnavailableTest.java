package io.msgx.adapter.pg;

import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A database that cannot be reached or does not answer in time is {@link StoreUnavailableException} naming the
 * operation (retried by the caller); any other SQL error is a defect and is not disguised as unavailability.
 */
class PgStoreUnavailableTest {

    /** The store's connections give up waiting for a row lock after 300 ms. */
    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase(Map.of("options", "-c lock_timeout=300"));

    private final SettableClock clock = SettableClock.atExampleDay();

    private static PipelineStore unreachable(SettableClock clock) {
        var dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:1/test");
        dataSource.setUser("postgres");
        dataSource.setConnectTimeout(1);
        return PgPipelineStore.create(dataSource, clock);
    }

    @Test
    void anUnreachableDatabaseIsUnavailableNamingTheOperation() {
        var store = unreachable(clock);

        assertThatThrownBy(() -> store.procStates().find(17))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("message 17");
        assertThatThrownBy(() -> store.inboxCursor().load())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("inbox cursor");
        assertThatThrownBy(() -> store.inTransaction(tx -> "never runs"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("transaction");
    }

    @Test
    void aLockWaitThatTimesOutIsUnavailable() throws Exception {
        var store = database.store(clock);
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var holder = Executors.newSingleThreadExecutor();
        try {
            var first = holder.submit(() -> store.inLockedTransaction(tx -> {
                holding.countDown();
                try {
                    return release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }));
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> store.inLockedTransaction(tx -> "never runs"))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("PIPELINE_LOCK");

            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
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
                .isNotInstanceOf(StoreUnavailableException.class)
                .isInstanceOf(RuntimeException.class);
    }
}
