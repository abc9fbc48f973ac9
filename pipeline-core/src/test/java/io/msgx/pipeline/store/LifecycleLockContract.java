package io.msgx.pipeline.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replay and backfill exclude each other between processes (seeds §9.1, issue 24 point 4): lifecycle work of one
 * session waits while another session of the same store holds the lock, and runs once it ends. Each store gives two
 * store objects over the same database, as two processes would have.
 */
public abstract class LifecycleLockContract extends StoreContract {

    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void lifecycle_work_of_another_session_waits_until_the_holder_ends_then_runs() throws Exception {
        var first = store();
        var second = store();
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();

        var holder = threads.submit(() -> first.exclusiveLifecycle(() -> {
            holding.countDown();
            await(release);
            order.add("holder ends");
            return null;
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        var waiter = threads.submit(() -> second.exclusiveLifecycle(() -> order.add("waiter runs")));

        Thread.sleep(Duration.ofMillis(700).toMillis());
        assertThat(waiter.isDone()).as("the second session waits for the lock").isFalse();
        release.countDown();
        waiter.get(10, TimeUnit.SECONDS);
        holder.get(10, TimeUnit.SECONDS);

        assertThat(order).containsExactly("holder ends", "waiter runs");
    }

    @Test
    void the_lock_is_free_again_after_work_that_failed() {
        var store = store();
        try {
            store.exclusiveLifecycle(() -> {
                throw new IllegalStateException("the round failed");
            });
        } catch (IllegalStateException expected) {
            // the lock must be released all the same
        }

        assertThat(store().exclusiveLifecycle(() -> "ran")).isEqualTo("ran");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
