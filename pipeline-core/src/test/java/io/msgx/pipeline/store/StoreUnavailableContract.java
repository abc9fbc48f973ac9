package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A database that cannot be reached or does not answer in time is {@link StoreUnavailableException} naming the
 * operation (retried by the caller); any other SQL error is a defect and is not disguised as unavailability.
 *
 * <p>A store's test class extends this and
 * supplies the stores below.
 */
public abstract class StoreUnavailableContract extends StoreContract {

    private static final long WAIT_SECONDS = 20;

    /** A store, using {@link #clock}, whose database cannot be reached. */
    protected abstract PipelineStore unreachableStore();

    /**
     * A store on the database of {@link #store()} that gives up waiting for a row lock within a few seconds; by
     * default {@link #store()} itself (when its connections are configured so).
     */
    protected PipelineStore impatientStore() {
        return store();
    }

    /**
     * Checks what the store threw for a defect (a value too wide for its column), beyond its not being
     * {@link StoreUnavailableException}; by default that it is a runtime exception.
     */
    protected void assertDefect(Throwable defect) {
        assertThat(defect).isInstanceOf(RuntimeException.class);
    }

    /** Asserts that each kind of call on {@code store} is unavailable, naming what it was doing. */
    protected static void assertUnavailableNamingTheOperation(PipelineStore store) {
        assertThatThrownBy(() -> store.queue().find(17))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("message 17");
        assertThatThrownBy(() -> store.inboxCursor().load())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("inbox cursor");
        assertThatThrownBy(() -> store.outboxQueries().deliveryBacklog())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("delivery backlog");
        assertThatThrownBy(() -> store.inTransaction(tx -> "never runs"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("transaction");
    }

    @Test
    void anUnreachableDatabaseIsUnavailableNamingTheOperation() {
        assertUnavailableNamingTheOperation(unreachableStore());
    }

    @Test
    void aLockWaitThatTimesOutIsUnavailable() throws Exception {
        var store = store();
        var impatient = impatientStore();
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var holder = Executors.newSingleThreadExecutor();
        try {
            var first = holder.submit(() -> store.inLockedTransaction(tx -> {
                holding.countDown();
                try {
                    return release.await(WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }));
            assertThat(holding.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> impatient.inLockedTransaction(tx -> "never runs"))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("PIPELINE_LOCK");

            release.countDown();
            assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            String entered = impatient.inLockedTransaction(tx -> "entered");
            assertThat(entered).isEqualTo("entered");
        } finally {
            release.countDown();
            holder.shutdownNow();
        }
    }

    @Test
    void aDefectIsNotMistakenForUnavailability() {
        var store = store();
        store.queue().insertIfAbsent(17, null, clock.instant());
        var tooLong = "K".repeat(500); // IDENTITY_KEY is 200 wide: a codec defect, not an outage

        var defect = catchThrowable(() -> IdentityBinder.bind(store, 17, tooLong, clock.instant()));

        assertThat(defect).isNotNull().isNotInstanceOf(StoreUnavailableException.class);
        assertDefect(defect);
    }
}
