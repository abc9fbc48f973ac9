package io.msgx.pipeline.store;

import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.IdentityRegister.BindAttempt;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the {@code PROC_STATE} ports ({@link MessageQueue}, {@link IdentityRegister}, {@link MessageQueries}) must do,
 * whatever the database. A store's test class extends this and supplies a
 * fresh, empty store per test.
 */
public abstract class ProcStatesContract extends ProcStatesFixture {







    // --- insertIfAbsent, find ---

    @Test
    void anEnqueuedMessageIsPendingWithNothingElseRecorded() {
        var received = now().minusSeconds(30);
        assertThat(queue.insertIfAbsent(17, received, now())).isTrue();

        var record = record(17);
        assertThat(record.msgId()).isEqualTo(17);
        assertThat(record.status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record.receivedAt()).isEqualTo(received);
        assertThat(record.enqueuedAt()).isEqualTo(now());
        assertThat(record.identityKey()).isNull();
        assertThat(record.attempts()).isZero();
        assertThat(record.nextAttemptAt()).isNull();
        assertThat(record.errorClass()).isNull();
        assertThat(record.lastError()).isNull();
        assertThat(record.backfillNextAt()).isNull();
        assertThat(record.backfillAt()).isNull();
        assertThat(record.backfillAttempts()).isZero();
        assertThat(record.backfillAbandonedAt()).isNull();
        assertThat(record.backfillAbandonedReason()).isNull();
        assertThat(record.backfillFailingSince()).isNull();
    }

    @Test
    void theMailboxReceiveTimeMayBeMissing() {
        assertThat(queue.insertIfAbsent(17, null, now())).isTrue();

        assertThat(record(17).receivedAt()).isNull();
        assertThat(record(17).enqueuedAt()).isEqualTo(now());
    }

    @Test
    void aSecondEnqueueOfTheSameMessageIsRefusedAndChangesNothing() {
        var firstEnqueue = now();
        queue.insertIfAbsent(17, firstEnqueue.minusSeconds(1), firstEnqueue);
        queue.recordFailure(17, ErrorClass.INFRA, "db down", now().plusSeconds(60), now());
        var before = record(17);
        clock.tick(Duration.ofMinutes(1));

        assertThat(queue.insertIfAbsent(17, now(), now())).isFalse();

        assertThat(record(17)).isEqualTo(before);
        assertThat(record(17).enqueuedAt()).isEqualTo(firstEnqueue);
    }

    @Test
    void messagesEnqueuedTogetherArePendingAndTheOnesAlreadyThereAreLeftAlone() {
        enqueue(17);
        queue.recordFailure(17, ErrorClass.INFRA, "db down", now().plusSeconds(60), now());
        var before = record(17);
        var receivedAt = new java.util.LinkedHashMap<Long, java.time.Instant>();
        receivedAt.put(17L, now());
        receivedAt.put(18L, now().minusSeconds(2));
        receivedAt.put(19L, null);

        assertThat(queue.insertAllIfAbsent(receivedAt, now())).isEqualTo(2);

        assertThat(record(17)).isEqualTo(before);
        assertThat(record(18).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record(18).receivedAt()).isEqualTo(now().minusSeconds(2));
        assertThat(record(19).receivedAt()).isNull();
        assertThat(record(19).enqueuedAt()).isEqualTo(now());
    }

    @Test
    void anUnknownMessageHasNoRecord() {
        enqueue(17);

        assertThat(queue.find(18)).isEmpty();
    }

    // --- head ---

    @Test
    void theHeadIsTheOpenMessageWithTheSmallestId() {
        enqueue(30, 10, 20);

        assertThat(queue.head()).map(ProcRecord::msgId).contains(10L);
    }

    @Test
    void aFailedMessageIsStillTheHead() {
        enqueue(10, 20);
        queue.recordFailure(10, ErrorClass.INTERNAL, "boom", now().plusSeconds(30), now());

        assertThat(queue.head()).map(ProcRecord::msgId).contains(10L);
        assertThat(queue.head()).map(ProcRecord::status).contains(ProcStatus.FAILED);
    }

    @Test
    void anEndedMessageIsNeverTheHead() {
        enqueue(10, 20, 30);
        queue.finish(10, MessageEnd.succeeded("applied"), now());
        queue.finish(20, MessageEnd.dead(ErrorClass.MALFORMED, "not XML"), now());

        assertThat(queue.head()).map(ProcRecord::msgId).contains(30L);
    }

    @Test
    void thereIsNoHeadWhenNothingIsOpen() {
        assertThat(queue.head()).isEmpty();

        enqueue(10);
        queue.finish(10, MessageEnd.skipped("ignored:LDM-*"), now());

        assertThat(queue.head()).isEmpty();
    }

    // --- pendingRun: what a group may take ---

    /** A run is a prefix of the full run {@code expected}: the head first, in FIFO order (a store may stop early). */
    private void assertRunIsPrefixOf(java.util.List<ProcRecord> run, Long... expected) {
        assertThat(run).as("a pending head always yields a run").isNotEmpty();
        assertThat(run.size()).isLessThanOrEqualTo(expected.length);
        assertThat(run).extracting(ProcRecord::msgId).containsExactly(java.util.Arrays.copyOf(expected, run.size()));
        assertThat(run).extracting(ProcRecord::status).containsOnly(ProcStatus.PENDING);
    }

    @Test
    void aRunIsThePendingMessagesFromTheHeadInFifoOrder() {
        enqueue(40, 10, 30, 20, 50);
        queue.finish(20, MessageEnd.succeeded("applied"), now());

        assertRunIsPrefixOf(queue.pendingRun(1000, 10), 10L, 30L, 40L, 50L);
        assertRunIsPrefixOf(queue.pendingRun(1000, 2), 10L, 30L);
        assertThat(queue.pendingRun(1000, 2)).hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void aRunStopsBeforeTheWatermarkAndBeforeAFailedMessage() {
        enqueue(10, 20, 30, 40);
        queue.recordFailure(30, ErrorClass.INTERNAL, "boom", now().plusSeconds(30), now());

        assertRunIsPrefixOf(queue.pendingRun(1000, 10), 10L, 20L);
        assertRunIsPrefixOf(queue.pendingRun(15, 10), 10L);
    }

    @Test
    void thereIsNoRunWhenTheHeadFailedOrIsAboveTheWatermark() {
        enqueue(10, 20);
        assertThat(queue.pendingRun(5, 10)).isEmpty();

        queue.recordFailure(10, ErrorClass.INTERNAL, "boom", now().plusSeconds(30), now());
        assertThat(queue.pendingRun(1000, 10)).isEmpty();
    }

    @Test
    void findAllReturnsTheRecordsThatExist() {
        enqueue(10, 20);

        var found = queue.findAll(java.util.List.of(10L, 20L, 99L));

        assertThat(found).containsOnlyKeys(10L, 20L);
        assertThat(found.get(20L)).isEqualTo(record(20));
    }

    // --- bindIdentity ---

    @Test
    void aFreeIdentityIsBoundToTheMessage() {
        enqueue(17);
        clock.tick(Duration.ofSeconds(3));

        assertThat(IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now())).isEqualTo(new IdentityBinding.Bound());

        assertThat(record(17).identityKey()).isEqualTo("AODB|SCHD|DNLD|42");
        assertThat(record(17).updatedAt()).isEqualTo(now());
    }

    @Test
    void bindingTheSameIdentityAgainIsBoundAgain() {
        enqueue(17);
        IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now());

        assertThat(IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now())).isEqualTo(new IdentityBinding.Bound());
        assertThat(record(17).identityKey()).isEqualTo("AODB|SCHD|DNLD|42");
    }

    // --- the binding's statements (IdentityBinder settles the races over them) ---

    @Test
    void bindIfUnboundTellsWhetherItBoundKeptOrFoundTheIdentityTaken() {
        enqueue(17, 18);

        assertThat(identities.bindIfUnbound(17, "AODB|SCHD|DNLD|42", now())).isEqualTo(BindAttempt.BOUND);
        assertThat(identities.bindIfUnbound(17, "AODB|SCHD|DNLD|43", now())).as("17 has one")
                .isEqualTo(BindAttempt.UNCHANGED);
        assertThat(identities.bindIfUnbound(404, "AODB|SCHD|DNLD|44", now())).as("no record")
                .isEqualTo(BindAttempt.UNCHANGED);
        assertThat(identities.bindIfUnbound(18, "AODB|SCHD|DNLD|42", now())).as("17 holds it")
                .isEqualTo(BindAttempt.TAKEN);

        assertThat(record(18).identityKey()).isNull();
        assertThat(identities.holderOf("AODB|SCHD|DNLD|42")).hasValue(17);
        assertThat(identities.holderOf("AODB|SCHD|DNLD|43")).isEmpty();
    }

    @Test
    void anIdentityFoundTakenInsideATransactionLeavesTheTransactionUsable() {
        enqueue(17, 18);
        IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now());

        var attempt = store().inTransaction(tx -> {
            var taken = tx.identities().bindIfUnbound(18, "AODB|SCHD|DNLD|42", now());
            tx.queue().finish(18, MessageEnd.skipped("duplicate-of:17"), now());
            return taken;
        });

        assertThat(attempt).isEqualTo(BindAttempt.TAKEN);
        assertThat(record(18).status()).isEqualTo(ProcStatus.SKIPPED);
    }

    @Test
    void anIdentityHeldByAnotherMessageNamesItsHolder() {
        enqueue(17, 18);
        IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now());

        assertThat(IdentityBinder.bind(identities, queue, 18, "AODB|SCHD|DNLD|42", now())).isEqualTo(new IdentityBinding.HeldBy(17));

        assertThat(record(18).identityKey()).isNull();
        assertThat(record(17).identityKey()).isEqualTo("AODB|SCHD|DNLD|42");
    }

    @Test
    void theHolderIsNamedEvenAfterItEnded() {
        enqueue(17, 18);
        IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now());
        queue.finish(17, MessageEnd.succeeded("applied"), now());

        assertThat(IdentityBinder.bind(identities, queue, 18, "AODB|SCHD|DNLD|42", now())).isEqualTo(new IdentityBinding.HeldBy(17));
    }

    @Test
    void aMessageKeepsTheIdentityAnEarlierAttemptGaveIt() {
        enqueue(17);
        IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now());

        assertThat(IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|43", now())).isEqualTo(new IdentityBinding.Bound());

        assertThat(record(17).identityKey()).isEqualTo("AODB|SCHD|DNLD|42");
    }

    @Test
    void bindingInsideATransactionBindsAndAHeldIdentityDoesNotSpoilTheTransaction() {
        enqueue(17, 18, 19);
        IdentityBinder.bind(identities, queue, 17, "AODB|SCHD|DNLD|42", now());

        var outcome = store().inTransaction(tx -> {
            var held = IdentityBinder.bind(tx, 18, "AODB|SCHD|DNLD|42", now());
            var bound = IdentityBinder.bind(tx, 19, "AODB|SCHD|DNLD|43", now());
            tx.queue().finish(18, MessageEnd.skipped("duplicate-of:17"), now());
            return java.util.List.of(held, bound);
        });

        assertThat(outcome).containsExactly(new IdentityBinding.HeldBy(17), new IdentityBinding.Bound());
        assertThat(record(19).identityKey()).isEqualTo("AODB|SCHD|DNLD|43");
        assertThat(record(18).status()).isEqualTo(ProcStatus.SKIPPED);
    }

    @Test
    void twoTransactionsRacingForOneIdentityBindItOnceAndTheLoserCarriesOn() throws Exception {
        enqueue(17, 18);
        var store = store();
        var firstBound = new CountDownLatch(1);
        var releaseFirst = new CountDownLatch(1);
        var threads = Executors.newFixedThreadPool(2);
        try {
            var first = threads.submit(() -> store.inTransaction(tx -> {
                var binding = IdentityBinder.bind(tx, 17, "AODB|SCHD|DNLD|42", now());
                firstBound.countDown();
                await(releaseFirst);
                return binding;
            }));
            assertThat(firstBound.await(10, TimeUnit.SECONDS)).isTrue();
            // The second binds while the first has bound but not committed: it must wait for the first's outcome,
            // learn the holder, and still be able to end its message in the same transaction.
            var second = threads.submit(() -> store.inTransaction(tx -> {
                var binding = IdentityBinder.bind(tx, 18, "AODB|SCHD|DNLD|42", now());
                tx.queue().finish(18, MessageEnd.skipped("duplicate-of:17"), now());
                return binding;
            }));
            Thread.sleep(300);
            releaseFirst.countDown();

            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(new IdentityBinding.Bound());
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(new IdentityBinding.HeldBy(17));
            assertThat(record(17).identityKey()).isEqualTo("AODB|SCHD|DNLD|42");
            assertThat(record(18).identityKey()).isNull();
            assertThat(record(18).status()).isEqualTo(ProcStatus.SKIPPED);
        } finally {
            releaseFirst.countDown();
            threads.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the first transaction");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Test
    void identitiesAreBoundInTheOrderGivenSoADuplicateInsideABatchIsHeldByItsOriginal() {
        enqueue(5, 10, 20, 30, 40);
        IdentityBinder.bind(identities, queue, 5, "A", now());

        var bindings = identities.bindIdentities(java.util.List.of(
                new IdentityRegister.IdentityClaim(10, "A"), new IdentityRegister.IdentityClaim(20, "B"),
                new IdentityRegister.IdentityClaim(30, "B"), new IdentityRegister.IdentityClaim(40, "C")), now());

        assertThat(bindings).containsEntry(10L, new IdentityBinding.HeldBy(5))
                .containsEntry(20L, new IdentityBinding.Bound())
                .containsEntry(30L, new IdentityBinding.HeldBy(20))
                .containsEntry(40L, new IdentityBinding.Bound());
        assertThat(record(10).identityKey()).isNull();
        assertThat(record(20).identityKey()).isEqualTo("B");
        assertThat(record(30).identityKey()).isNull();
        assertThat(record(40).identityKey()).isEqualTo("C");
    }

    @Test
    void aMessageBoundEarlierKeepsItsIdentityInABatch() {
        enqueue(10, 20);
        IdentityBinder.bind(identities, queue, 10, "A", now());

        var bindings = identities.bindIdentities(java.util.List.of(
                new IdentityRegister.IdentityClaim(10, "A"), new IdentityRegister.IdentityClaim(20, "A")), now());

        assertThat(bindings).containsEntry(10L, new IdentityBinding.Bound())
                .containsEntry(20L, new IdentityBinding.HeldBy(10));
    }

    // --- finish ---

    @Test
    void finishAllEndsTheOpenMessagesAndCountsThem() {
        enqueue(10, 20, 30);
        queue.finish(20, MessageEnd.succeeded("applied"), now());
        clock.tick(Duration.ofSeconds(5));

        int ended = queue.finishAll(java.util.List.of(
                new MessageQueue.Ending(10, MessageEnd.skipped("duplicate-of:3")),
                new MessageQueue.Ending(20, MessageEnd.dead(ErrorClass.PROTOCOL, "late")),
                new MessageQueue.Ending(30, MessageEnd.dead(ErrorClass.MALFORMED, "not XML"))), now());

        assertThat(ended).isEqualTo(2);
        assertThat(record(10).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(10).lastError()).isEqualTo("duplicate-of:3");
        assertThat(record(10).backfillNextAt()).isEqualTo(now());
        assertThat(record(20).status()).as("an ended message is not ended again").isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(30).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(30).errorClass()).isEqualTo(ErrorClass.MALFORMED);
        assertThat(record(30).updatedAt()).isEqualTo(now());
    }

    @Test
    void finishingAnOpenMessageEndsItAndOwesTheMailboxMark() {
        enqueue(17);
        clock.tick(Duration.ofSeconds(2));

        assertThat(queue.finish(17, MessageEnd.succeeded("applied"), now())).isTrue();

        var record = record(17);
        assertThat(record.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record.errorClass()).isNull();
        assertThat(record.lastError()).isEqualTo("applied");
        assertThat(record.updatedAt()).isEqualTo(now());
        assertThat(record.backfillNextAt()).isEqualTo(now());
        assertThat(record.backfillAt()).isNull();
    }

    @Test
    void aSkippedMessageKeepsItsReason() {
        enqueue(17);

        assertThat(queue.finish(17, MessageEnd.skipped("duplicate-of:12"), now())).isTrue();

        assertThat(record(17).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(17).errorClass()).isNull();
        assertThat(record(17).lastError()).isEqualTo("duplicate-of:12");
    }

    @Test
    void aDeadMessageKeepsItsClassAndReason() {
        enqueue(17);

        assertThat(queue.finish(17, MessageEnd.dead(ErrorClass.PROTOCOL, "RECS 3 but 2 records"), now())).isTrue();

        assertThat(record(17).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(17).errorClass()).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(record(17).lastError()).isEqualTo("RECS 3 but 2 records");
        assertThat(record(17).backfillNextAt()).isEqualTo(now());
    }

    @Test
    void aFailedMessageCanStillBeFinished() {
        enqueue(17);
        queue.recordFailure(17, ErrorClass.INFRA, "db down", now().plusSeconds(10), now());

        assertThat(queue.finish(17, MessageEnd.succeeded(null), now())).isTrue();

        assertThat(record(17).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(17).errorClass()).isNull();
        assertThat(record(17).attempts()).isEqualTo(1);
    }

    @Test
    void finishingAnEndedMessageIsRefusedAndChangesNothing() {
        enqueue(17);
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        var ended = record(17);
        clock.tick(Duration.ofMinutes(1));

        assertThat(queue.finish(17, MessageEnd.dead(ErrorClass.INTERNAL, "late"), now())).isFalse();

        assertThat(record(17)).isEqualTo(ended);
    }

    @Test
    void finishingAnUnknownMessageIsRefused() {
        assertThat(queue.finish(404, MessageEnd.succeeded("applied"), now())).isFalse();
        assertThat(queue.find(404)).isEmpty();
    }

    @Test
    void aVeryLongReasonIsCutNotRefused() {
        enqueue(17);
        var reason = "x".repeat(10_000);

        assertThat(queue.finish(17, MessageEnd.dead(ErrorClass.MALFORMED, reason), now())).isTrue();

        assertThat(record(17).lastError()).isNotEmpty().hasSizeLessThan(reason.length());
        assertThat(reason).startsWith(record(17).lastError());
    }

    // --- recordFailure ---

    @Test
    void aFailedAttemptIsCountedWithItsClassTextAndRetryTime() {
        enqueue(17);
        var retryAt = now().plusSeconds(30);

        assertThat(queue.recordFailure(17, ErrorClass.CODEC_ERROR, "bad FLTR", retryAt, now())).isTrue();

        var record = record(17);
        assertThat(record.status()).isEqualTo(ProcStatus.FAILED);
        assertThat(record.attempts()).isEqualTo(1);
        assertThat(record.errorClass()).isEqualTo(ErrorClass.CODEC_ERROR);
        assertThat(record.lastError()).isEqualTo("bad FLTR");
        assertThat(record.nextAttemptAt()).isEqualTo(retryAt);
        assertThat(record.updatedAt()).isEqualTo(now());
        assertThat(record.backfillNextAt()).isNull();
    }

    @Test
    void eachFailedAttemptCountsAndTheLatestErrorWins() {
        enqueue(17);
        queue.recordFailure(17, ErrorClass.INFRA, "db down", now().plusSeconds(10), now());
        clock.tick(Duration.ofSeconds(10));
        var retryAt = now().plusSeconds(20);

        assertThat(queue.recordFailure(17, ErrorClass.INTERNAL, "NPE", retryAt, now())).isTrue();

        var record = record(17);
        assertThat(record.attempts()).isEqualTo(2);
        assertThat(record.errorClass()).isEqualTo(ErrorClass.INTERNAL);
        assertThat(record.lastError()).isEqualTo("NPE");
        assertThat(record.nextAttemptAt()).isEqualTo(retryAt);
    }

    @Test
    void aFailureOfAnEndedOrUnknownMessageIsRefused() {
        enqueue(17);
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        var ended = record(17);

        assertThat(queue.recordFailure(17, ErrorClass.INFRA, "late", now().plusSeconds(5), now())).isFalse();
        assertThat(queue.recordFailure(404, ErrorClass.INFRA, "who", now().plusSeconds(5), now())).isFalse();

        assertThat(record(17)).isEqualTo(ended);
        assertThat(queue.find(404)).isEmpty();
    }

    @Test
    void aVeryLongErrorIsCutNotRefused() {
        enqueue(17);
        var error = "stack ".repeat(2_000);

        assertThat(queue.recordFailure(17, ErrorClass.INTERNAL, error, now(), now())).isTrue();

        assertThat(error).startsWith(record(17).lastError());
        assertThat(record(17).lastError()).hasSizeGreaterThanOrEqualTo(1000).hasSizeLessThan(error.length());
    }

    // --- exhaust ---

    @Test
    void anExhaustedMessageDiesKeepingItsLastErrorAndOwesTheMark() {
        enqueue(17);
        queue.recordFailure(17, ErrorClass.UNSUPPORTED, "no processor for FLUP", now().plusSeconds(5), now());
        clock.tick(Duration.ofMinutes(5));

        assertThat(queue.exhaust(17, now())).isTrue();

        var record = record(17);
        assertThat(record.status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record.errorClass()).isEqualTo(ErrorClass.EXHAUSTED);
        assertThat(record.lastError()).isEqualTo("no processor for FLUP");
        assertThat(record.attempts()).isEqualTo(1);
        assertThat(record.updatedAt()).isEqualTo(now());
        assertThat(record.backfillNextAt()).isEqualTo(now());
    }

    @Test
    void onlyAFailedMessageCanBeExhausted() {
        enqueue(17, 18);
        queue.recordFailure(18, ErrorClass.INFRA, "db down", now(), now());
        queue.exhaust(18, now());
        var dead = record(18);

        assertThat(queue.exhaust(17, now())).as("pending").isFalse();
        assertThat(queue.exhaust(18, now())).as("already dead").isFalse();
        assertThat(queue.exhaust(404, now())).as("unknown").isFalse();

        assertThat(record(17).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record(18)).isEqualTo(dead);
    }

    // --- backlog ---

    @Test
    void anEmptyStoreHasNoBacklog() {
        assertThat(queries.backlog()).isEqualTo(new MessageQueries.Backlog(0, 0, 0, 0, 0, null));
    }

    @Test
    void theBacklogCountsEachStateAndDatesTheOldestOpenMessage() {
        var oldest = now();
        queue.insertIfAbsent(1, null, oldest.minusSeconds(60)); // ends: not open
        queue.insertIfAbsent(2, null, oldest);
        clock.tick(Duration.ofSeconds(10));
        enqueue(3, 4, 5, 6, 7);
        queue.finish(1, MessageEnd.succeeded("applied"), now());
        queue.recordFailure(3, ErrorClass.INFRA, "db down", now(), now());
        queue.finish(4, MessageEnd.skipped("ignored"), now());
        queue.finish(5, MessageEnd.dead(ErrorClass.MALFORMED, "not XML"), now());
        queue.finish(6, MessageEnd.succeeded("applied"), now());

        assertThat(queries.backlog()).isEqualTo(new MessageQueries.Backlog(2, 1, 2, 1, 1, oldest));
    }

    @Test
    void theBacklogHasNoOldestOpenMessageWhenAllEnded() {
        enqueue(1, 2);
        queue.finish(1, MessageEnd.succeeded("applied"), now());
        queue.recordFailure(2, ErrorClass.INFRA, "db down", now(), now());
        queue.exhaust(2, now());

        assertThat(queries.backlog()).isEqualTo(new MessageQueries.Backlog(0, 0, 1, 0, 1, null));
    }

    @Test
    void operators_list_the_messages_in_one_state_oldest_first() {
        enqueue(31);
        enqueue(32);
        enqueue(33);
        queue.finish(33, MessageEnd.dead(ErrorClass.MALFORMED, "broken"), now());
        queue.finish(31, MessageEnd.dead(ErrorClass.PROTOCOL, "RECS"), now());
        assertThat(queries.withStatus(ProcStatus.DEAD, 10)).extracting(ProcRecord::msgId).containsExactly(31L, 33L);
        assertThat(queries.withStatus(ProcStatus.DEAD, 1)).extracting(ProcRecord::msgId).containsExactly(31L);
        assertThat(queries.withStatus(ProcStatus.PENDING, 10)).extracting(ProcRecord::msgId).containsExactly(32L);
    }
}
