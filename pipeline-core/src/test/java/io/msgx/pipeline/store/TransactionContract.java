package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.InboxCursor;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link PipelineStore} transaction must do: commit what the work wrote when it returns, roll back every
 * write (flights, outbox, processing records, cursor) when it throws, and, for a locked transaction, hold
 * {@code PIPELINE_LOCK} so that two locked transactions never overlap.
 */
public abstract class TransactionContract extends StoreContract {

    private static final long WAIT_SECONDS = 10;

    private interface Runner {
        <T> T run(PipelineStore store, PipelineStore.TransactionWork<T> work);
    }

    private static final Runner PLAIN = new Runner() {
        @Override
        public <T> T run(PipelineStore store, PipelineStore.TransactionWork<T> work) {
            return store.inTransaction(work);
        }
    };

    private static final Runner LOCKED = new Runner() {
        @Override
        public <T> T run(PipelineStore store, PipelineStore.TransactionWork<T> work) {
            return store.inLockedTransaction(work);
        }
    };

    private OutboxEvent notification(String flid, long version, long msgId) {
        return new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of(flid), OutboxEvent.EventType.UPSERT, version, msgId,
                "{\"v\":" + version + "}", clock.instant());
    }

    private OutboxEvent projection(String flid, long version, long msgId) {
        return new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of(flid), OutboxEvent.EventType.UPSERT, version,
                msgId, "{\"v\":" + version + "}", clock.instant());
    }

    private static List<FlightState> flights(PipelineStore store, String... flids) {
        return store.inTransaction(tx -> tx.flights().find(ids(flids)));
    }

    private static List<OutboxEntry> pending(PipelineStore store, OutboxTarget target) {
        return store.inTransaction(tx -> tx.outboxQueries().pending(target, 10));
    }

    @Test
    void aTransactionThatReturnsCommitsEverythingAndGivesItsValue() {
        assertCommits(PLAIN);
    }

    @Test
    void aLockedTransactionThatReturnsCommitsEverythingAndGivesItsValue() {
        assertCommits(LOCKED);
    }

    @Test
    void aTransactionThatThrowsRollsBackEveryWrite() {
        assertRollsBack(PLAIN);
    }

    @Test
    void aLockedTransactionThatThrowsRollsBackEveryWrite() {
        assertRollsBack(LOCKED);
    }

    private void assertCommits(Runner runner) {
        var store = store();
        var flight = plain("1001");

        var result = runner.run(store, tx -> {
            tx.queue().insertIfAbsent(17, null, clock.instant());
            IdentityBinder.bind(tx, 17, "AODB|SCHD|DNLD|1", clock.instant());
            tx.flights().save(List.of(flight), clock.instant());
            tx.notifications().append(notification("1001", 1, 17));
            tx.projections().upsertProjection(projection("1001", 1, 17));
            tx.inboxCursor().save(17, null);
            return "done";
        });

        assertThat(result).isEqualTo("done");
        assertThat(store.queue().find(17)).map(ProcRecord::identityKey).contains("AODB|SCHD|DNLD|1");
        assertThat(flights(store, "1001")).containsExactly(flight);
        assertThat(pending(store, OutboxTarget.KAFKA_MSG)).hasSize(1);
        assertThat(pending(store, OutboxTarget.KAFKA_SCHD)).hasSize(1);
        assertThat(store.inboxCursor().load().watermark()).isEqualTo(17);
    }

    private void assertRollsBack(Runner runner) {
        var store = store();
        var before = plain("1001");
        store.queue().insertIfAbsent(17, null, clock.instant());
        store.inTransaction(tx -> {
            tx.flights().save(List.of(before), clock.instant());
            tx.projections().upsertProjection(projection("1001", 1, 16));
            return null;
        });
        store.inboxCursor().save(17, null);
        var pendingBefore = pending(store, OutboxTarget.KAFKA_SCHD);
        var changed = new FlightState(before.flid(), before.status(), 2, before.operationDay(), 18,
                before.fields().with(FlightField.STND, "212"), before.lists());
        var failure = new IllegalStateException("the engine failed half-way");

        assertThatThrownBy(() -> runner.run(store, tx -> {
            tx.queue().insertIfAbsent(18, null, clock.instant());
            IdentityBinder.bind(tx, 17, "AODB|SCHD|DNLD|1", clock.instant());
            tx.queue().finish(17, MessageEnd.succeeded("applied"), clock.instant());
            tx.flights().save(List.of(changed, plain("1002")), clock.instant());
            tx.notifications().append(notification("1001", 2, 18));
            tx.projections().upsertProjection(projection("1001", 2, 18));
            tx.inboxCursor().save(18, clock.instant());
            throw failure;
        })).isSameAs(failure);

        assertThat(store.queue().find(18)).isEmpty();
        var record = store.queue().find(17).orElseThrow();
        assertThat(record.status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record.identityKey()).isNull();
        assertThat(flights(store, "1001", "1002")).containsExactly(before);
        assertThat(pending(store, OutboxTarget.KAFKA_MSG)).isEmpty();
        assertThat(pending(store, OutboxTarget.KAFKA_SCHD)).isEqualTo(pendingBefore);
        assertThat(store.inboxCursor().load()).isEqualTo(new InboxCursor(17, null, null));
    }

    @Test
    void aSecondLockedTransactionWaitsUntilTheFirstCommits() throws Exception {
        var store = store();
        var firstHoldsLock = new CountDownLatch(1);
        var releaseFirst = new CountDownLatch(1);
        var secondEntered = new CountDownLatch(1);
        var firstEndsAt = new AtomicLong();
        var secondEntersAt = new AtomicLong();
        var threads = Executors.newFixedThreadPool(2);
        try {
            var first = threads.submit(() -> store.inLockedTransaction(tx -> {
                tx.queue().insertIfAbsent(1, null, clock.instant());
                firstHoldsLock.countDown();
                awaitOrFail(releaseFirst);
                firstEndsAt.set(System.nanoTime());
                return null;
            }));
            assertThat(firstHoldsLock.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the first took the lock").isTrue();

            var second = threads.submit(() -> store.inLockedTransaction(tx -> {
                secondEntersAt.set(System.nanoTime());
                secondEntered.countDown();
                return tx.queue().find(1);
            }));

            assertThat(secondEntered.await(700, TimeUnit.MILLISECONDS))
                    .as("the second locked transaction started while the first held the lock").isFalse();
            releaseFirst.countDown();
            first.get(WAIT_SECONDS, TimeUnit.SECONDS);
            Optional<ProcRecord> seenBySecond = second.get(WAIT_SECONDS, TimeUnit.SECONDS);

            assertThat(secondEntersAt.get()).as("the second entered after the first ended").isGreaterThan(firstEndsAt.get());
            assertThat(seenBySecond).as("the second sees what the first committed").isPresent();
        } finally {
            releaseFirst.countDown();
            threads.shutdownNow();
            assertThat(threads.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void theLockIsFreeAgainAfterALockedTransactionThrew() throws Exception {
        var store = store();
        assertThatThrownBy(() -> store.inLockedTransaction(tx -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");

        var threads = Executors.newSingleThreadExecutor();
        try {
            var next = threads.submit(() -> store.inLockedTransaction(tx -> "entered"));
            assertThat(next.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("entered");
        } finally {
            threads.shutdownNow();
        }
    }

    private static void awaitOrFail(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the first transaction");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while holding the lock", e);
        }
    }
}
