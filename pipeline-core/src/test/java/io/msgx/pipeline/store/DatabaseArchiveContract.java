package io.msgx.pipeline.store;

import io.msgx.pipeline.lifecycle.MarkSettlement;
import io.msgx.pipeline.lifecycle.RecordArchiving;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link ArchiveContract}, plus what the database stores add: the archive never waits for {@code PIPELINE_LOCK},
 * loses cleanly to a replay that commits between its copy and its update, carries the reconciliation into the
 * history, and a refused copy inside a caller's transaction writes nothing and leaves that transaction usable. These need row locks and concurrent
 * sessions (apart from {@link ArchiveContract} since an in-memory fake ran that one alone, D-101).
 */
public abstract class DatabaseArchiveContract extends ArchiveContract {

    private static final long WAIT_SECONDS = 10;

    /** What the message's {@code PROC_STATE_HST} row holds of its reconciliation, and when it was archived. */
    public record ArchivedReconciliation(Instant reconciledAt, String reconciledBy, String reconciliationNote,
                                         Instant archivedAt) {
    }

    /** A dead, confirmed message two days old, listed as an archive candidate. */
    private ProcRecord deadCandidate(long msgId) {
        var store = store();
        store.queue().insertIfAbsent(msgId, null, clock.instant());
        store.queue().recordFailure(msgId, ErrorClass.INFRA, "db down", clock.instant(), clock.instant());
        store.queue().exhaust(msgId, clock.instant());
        store.backfillMarks().backfillConfirmed(msgId, clock.instant());
        clock.tick(Duration.ofDays(2));
        return store.messageArchive().archiveCandidates(clock.instant(), 10).get(0);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the transaction");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Test
    void theArchiveDoesNotWaitForPipelineLock() throws Exception {
        var candidate = deadCandidate(17);
        var locked = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var threads = Executors.newFixedThreadPool(2);
        try {
            var holder = threads.submit(() -> store().inLockedTransaction(tx -> {
                locked.countDown();
                await(release);
                return null;
            }));
            assertThat(locked.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

            var archived = threads.submit(() -> new RecordArchiving(store()).archive(candidate, clock.instant()));

            assertThat(archived.get(WAIT_SECONDS, TimeUnit.SECONDS)).as("archived while the lock is held").isTrue();
            release.countDown();
            holder.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    void aReplayCommittedBetweenTheCopyAndTheUpdateWinsAndTheCopyIsRolledBack() throws Exception {
        var candidate = deadCandidate(17);
        var replayed = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var threads = Executors.newFixedThreadPool(2);
        try {
            // The replay holds the row (uncommitted): the archive's copy still reads the old, committed row, its
            // update waits for the replay, then finds the row changed.
            var replay = threads.submit(() -> store().inTransaction(tx -> {
                var ids = tx.replays().replay(List.of(17L), Set.of(ErrorClass.EXHAUSTED), clock.instant());
                replayed.countDown();
                await(release);
                return ids;
            }));
            assertThat(replayed.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            var archive = threads.submit(() -> new RecordArchiving(store()).archive(candidate, clock.instant()));
            Thread.sleep(300);
            assertThat(archive).as("the archive waits for the replay's row").isNotDone();
            release.countDown();

            assertThat(replay.get(WAIT_SECONDS, TimeUnit.SECONDS)).containsExactly(17L);
            assertThat(archive.get(WAIT_SECONDS, TimeUnit.SECONDS)).isFalse();
            assertThat(probe.countProcessingHistory(17)).isZero();
            assertThat(store().queue().find(17)).map(ProcRecord::status).contains(ProcStatus.PENDING);
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    void theReconciliationTravelsIntoTheHistory() {
        var store = store();
        store.queue().insertIfAbsent(17, null, clock.instant());
        store.queue().finish(17, MessageEnd.succeeded("applied"), clock.instant());
        store.backfillMarks().backfillAbandoned(17, "MISSING_ROW", clock.instant());
        var reconciledAt = clock.instant().plusSeconds(60);
        new MarkSettlement(store).reconcile(17, "ops-li", "purged by the DBA", reconciledAt);
        clock.tick(Duration.ofDays(2));

        assertThat(new RecordArchiving(store).archive(store.messageArchive().archiveCandidates(clock.instant(), 10).get(0), clock.instant())).isTrue();

        assertThat(probe.archivedReconciliation(17)).contains(
                new ArchivedReconciliation(reconciledAt, "ops-li", "purged by the DBA", clock.instant()));
        assertThat(probe.countBackfillReconciliations()).as("moved, not copied").isZero();
    }

    @Test
    void insideATransactionARefusedCopyWritesNothingAndTheTransactionGoesOn() {
        var candidate = deadCandidate(17);
        store().replays().replay(List.of(17L), Set.of(ErrorClass.EXHAUSTED), clock.instant());
        store().queue().insertIfAbsent(18, null, clock.instant());

        var copied = store().inTransaction(tx -> {
            var refused = tx.messageArchive().copyToHistory(candidate, clock.instant());
            tx.queue().finish(18, MessageEnd.succeeded("applied"), clock.instant());
            return refused;
        });

        assertThat(copied).isFalse();
        assertThat(probe.countProcessingHistory(17)).isZero();
        assertThat(store().queue().find(18)).map(ProcRecord::status).contains(ProcStatus.SUCCEEDED);
    }
}
