package io.msgx.pipeline.store;

import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every store must do with the backfill facts of {@code PROC_STATE} (seeds §6): the scan predicate and order
 * of §6.1, the outcomes of §6.2 (confirmed, failed, abandoned), and the operators' reopening and reconciliation of
 * abandoned marks. A store's test class extends this and supplies a fresh, empty store per test.
 */
public abstract class BackfillContract extends ProcStatesFixture {

    /** {@code R}: past it, a mark is written whatever its backoff. */
    private static final Duration R = Duration.ofHours(24);
    private static final int BATCH = 50;

    /** Enqueued now and ended now: the mark is owed from now. */
    private void ended(long... msgIds) {
        for (long msgId : msgIds) {
            enqueue(msgId);
            assertThat(queue.finish(msgId, MessageEnd.succeeded("applied"), now())).isTrue();
        }
    }

    /** The IDs the scan returns at the current time, with the overdue window R. */
    private List<Long> due() {
        return due(BATCH);
    }

    private List<Long> due(int limit) {
        return backfillMarks.backfillDue(now(), now().minus(R), limit).stream().map(ProcRecord::msgId).toList();
    }

    /** Backs the mark off for an hour. */
    private void backOff(long msgId) {
        assertThat(backfillMarks.backfillFailed(msgId, now().plus(Duration.ofHours(1)), now())).isTrue();
    }

    // --- the scan predicate ---

    @Test
    void anEndedMessageOwesItsMarkAtOnce() {
        ended(17);

        assertThat(due()).containsExactly(17L);
        assertThat(backfillMarks.backfillDue(now(), now().minus(R), BATCH)).containsExactly(record(17));
    }

    @Test
    void aMarkBackedOffIsNotDueUntilItsTimeComes() {
        ended(17);
        backfillMarks.backfillFailed(17, now().plus(Duration.ofMinutes(10)), now());

        assertThat(due()).isEmpty();

        clock.tick(Duration.ofMinutes(10).minusMillis(1));
        assertThat(due()).isEmpty();

        clock.tick(Duration.ofMillis(1));
        assertThat(due()).as("due at its next time exactly").containsExactly(17L);
    }

    @Test
    void aTerminalRowWithoutBackoffTimeIsDue() {
        ended(17);
        backOff(17);
        probe.clearBackfillNextAt(17);
        assertThat(record(17).backfillNextAt()).isNull();

        assertThat(due()).containsExactly(17L);
    }

    @Test
    void anOverdueMarkIsDueWhateverItsBackoff() {
        // Enqueued more than R ago; the mailbox's receive time is recent, and must not matter either way.
        assertThat(queue.insertIfAbsent(17, now(), now().minus(R).minusSeconds(1))).isTrue();
        queue.finish(17, MessageEnd.skipped("ignored:LDM-*"), now());
        backOff(17);

        assertThat(due()).containsExactly(17L);
    }

    @Test
    void overdueIsJudgedByOurEnqueueTimeNeverByTheMailboxReceiveTime() {
        // received a month ago but enqueued a minute ago: not overdue
        queue.insertIfAbsent(18, now().minus(Duration.ofDays(30)), now().minusSeconds(60));
        // no receive time, enqueued a minute ago: not overdue
        queue.insertIfAbsent(19, null, now().minusSeconds(60));
        // no receive time, enqueued more than R ago: overdue
        queue.insertIfAbsent(20, null, now().minus(R).minusSeconds(1));
        for (long msgId : new long[] {18, 19, 20}) {
            queue.finish(msgId, MessageEnd.dead(ErrorClass.MALFORMED, "not XML"), now());
            backOff(msgId);
        }

        assertThat(due()).containsExactly(20L);
    }

    @Test
    void overdueMeansEnqueuedStrictlyBeforeNowMinusR() {
        queue.insertIfAbsent(17, null, now().minus(R));
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        backOff(17);

        assertThat(due()).isEmpty();

        clock.tick(Duration.ofMillis(1));
        assertThat(due()).containsExactly(17L);
    }

    @Test
    void fewestAttemptsFirstThenSmallestId() {
        ended(10, 11, 12, 13);
        for (long msgId : new long[] {10, 10, 11, 13}) {
            backfillMarks.backfillFailed(msgId, now(), now());
        }

        assertThat(due()).containsExactly(12L, 11L, 13L, 10L);
    }

    @Test
    void aScanReturnsAtMostItsLimit() {
        ended(5, 4, 3, 2, 1);

        assertThat(due(2)).containsExactly(1L, 2L);
    }

    @Test
    void onlyTerminalRowsStillOwingTheirMarkAreScanned() {
        // Everything enqueued long ago, so the overdue branch holds for every row: only the other clauses exclude.
        var longAgo = now().minus(R.multipliedBy(2));
        for (long msgId = 1; msgId <= 8; msgId++) {
            queue.insertIfAbsent(msgId, null, longAgo);
        }
        // 1 PENDING, 2 FAILED: open
        queue.recordFailure(2, ErrorClass.INFRA, "db down", now(), now());
        // 3 confirmed
        queue.finish(3, MessageEnd.succeeded("applied"), now());
        backfillMarks.backfillConfirmed(3, now());
        // 4 abandoned
        queue.finish(4, MessageEnd.succeeded("applied"), now());
        backfillMarks.backfillAbandoned(4, "MISSING_ROW", now());
        // 5 archived (a shadow: nothing of its backfill facts left, only its state keeps it out)
        queue.finish(5, MessageEnd.succeeded("applied"), now());
        backfillMarks.backfillConfirmed(5, now());
        clock.tick(Duration.ofSeconds(1));
        assertThat(archiving.archive(record(5), now())).isTrue();
        assertThat(record(5).status()).isEqualTo(ProcStatus.ARCHIVED);
        // 6, 7, 8: each terminal state, owing its mark
        queue.finish(6, MessageEnd.succeeded("applied"), now());
        queue.finish(7, MessageEnd.skipped("duplicate-of:6"), now());
        queue.finish(8, MessageEnd.dead(ErrorClass.PROTOCOL, "RECS 3 but 2 records"), now());

        assertThat(due()).containsExactly(6L, 7L, 8L);
        assertThat(backfillMarks.backfillDue(now(), now().plus(R), BATCH)).extracting(ProcRecord::msgId)
                .as("even when everything counts as overdue").containsExactly(6L, 7L, 8L);
    }

    // --- confirmed ---

    @Test
    void aConfirmedMarkIsRecordedAndNoLongerOwed() {
        ended(17);
        clock.tick(Duration.ofSeconds(3));

        assertThat(backfillMarks.backfillConfirmed(17, now())).isTrue();

        assertThat(record(17).backfillAt()).isEqualTo(now());
        assertThat(record(17).backfillAbandonedAt()).isNull();
        assertThat(record(17).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(backfillMarks.backfillDue(now(), now().plus(R), BATCH)).isEmpty();
    }

    @Test
    void marksConfirmedTogetherAreRecordedExceptTheConfirmedAndTheAbandoned() {
        ended(17);
        ended(18);
        ended(19);
        ended(20);
        backfillMarks.backfillConfirmed(18, now());
        backfillMarks.backfillAbandoned(19, "MISSING_ROW", now());
        clock.tick(Duration.ofSeconds(3));

        assertThat(backfillMarks.backfillConfirmedAll(java.util.List.of(17L, 18L, 19L, 20L, 404L), now())).isEqualTo(2);

        assertThat(record(17).backfillAt()).isEqualTo(now());
        assertThat(record(20).backfillAt()).isEqualTo(now());
        assertThat(record(18).backfillAt()).isEqualTo(now().minusSeconds(3));
        assertThat(record(19).backfillAt()).isNull();
        assertThat(backfillMarks.backfillDue(now(), now().plus(R), BATCH)).isEmpty();
    }

    @Test
    void aConfirmedMarkIsNotConfirmedAgainNorAbandonedNorRetried() {
        ended(17);
        var confirmedAt = now();
        backfillMarks.backfillConfirmed(17, confirmedAt);
        var confirmed = record(17);
        clock.tick(Duration.ofMinutes(1));

        assertThat(backfillMarks.backfillConfirmed(17, now())).isFalse();
        assertThat(backfillMarks.backfillAbandoned(17, "MISSING_ROW", now())).isFalse();
        assertThat(backfillMarks.backfillFailed(17, now().plusSeconds(30), now())).isFalse();

        assertThat(record(17)).isEqualTo(confirmed);
        assertThat(record(17).backfillAt()).isEqualTo(confirmedAt);
    }

    @Test
    void anAbandonedMarkIsNotConfirmedAutomaticallyNorAbandonedAgain() {
        ended(17);
        backfillMarks.backfillAbandoned(17, "TRANSIENT_DEADLINE", now());
        var abandoned = record(17);
        clock.tick(Duration.ofMinutes(1));

        assertThat(backfillMarks.backfillConfirmed(17, now())).isFalse();
        assertThat(backfillMarks.backfillAbandoned(17, "MISSING_ROW", now())).isFalse();

        assertThat(record(17)).isEqualTo(abandoned);
        assertThat(record(17).backfillAt()).isNull();
    }

    @Test
    void theMarkOfAnUnknownMessageIsRefused() {
        assertThat(backfillMarks.backfillConfirmed(404, now())).isFalse();
        assertThat(backfillMarks.backfillAbandoned(404, "MISSING_ROW", now())).isFalse();
        assertThat(backfillMarks.backfillFailed(404, now(), now())).isFalse();
        assertThat(queue.find(404)).isEmpty();
    }

    // --- failed ---

    @Test
    void aFailedMarkCountsAnAttemptAndWaitsForItsNextTime() {
        ended(17);
        var first = now().plusSeconds(30);

        assertThat(backfillMarks.backfillFailed(17, first, now())).isTrue();
        assertThat(record(17).backfillAttempts()).isEqualTo(1);
        assertThat(record(17).backfillNextAt()).isEqualTo(first);
        assertThat(record(17).backfillAt()).isNull();

        clock.tick(Duration.ofSeconds(30));
        var second = now().plusSeconds(60);
        assertThat(backfillMarks.backfillFailed(17, second, now())).isTrue();
        assertThat(record(17).backfillAttempts()).isEqualTo(2);
        assertThat(record(17).backfillNextAt()).isEqualTo(second);
    }

    @Test
    void aFailedMarkKeepsTheTimeOfItsFirstFailureWhichAnAbandonmentKeepsToo() {
        ended(17);
        assertThat(record(17).backfillFailingSince()).as("no failure yet").isNull();
        clock.tick(Duration.ofMinutes(3));
        var firstFailure = now();

        backfillMarks.backfillFailed(17, now().plusSeconds(10), now());
        assertThat(record(17).backfillFailingSince()).isEqualTo(firstFailure);

        clock.tick(Duration.ofMinutes(20));
        backfillMarks.backfillFailed(17, now().plusSeconds(60), now());
        assertThat(record(17).backfillFailingSince()).as("a later failure keeps it").isEqualTo(firstFailure);

        backfillMarks.backfillAbandoned(17, "TRANSIENT_DEADLINE", now());
        assertThat(record(17).backfillFailingSince()).isEqualTo(firstFailure);
    }

    @Test
    void aConfirmedMarkIsNoLongerFailing() {
        ended(17, 18);
        backOff(17);
        backOff(18);
        var firstFailure = now();
        assertThat(List.of(record(17), record(18))).extracting(ProcRecord::backfillFailingSince)
                .containsOnly(firstFailure);
        clock.tick(Duration.ofMinutes(1));

        assertThat(backfillMarks.backfillConfirmed(17, now())).isTrue();
        assertThat(backfillMarks.backfillConfirmedAll(List.of(18L), now())).isEqualTo(1);

        assertThat(record(17).backfillFailingSince()).isNull();
        assertThat(record(18).backfillFailingSince()).isNull();
    }

    @Test
    void aReopenedMarkStartsItsFailuresAnew() {
        ended(17);
        backOff(17);
        clock.tick(Duration.ofHours(2));
        backfillMarks.backfillAbandoned(17, "TRANSIENT_DEADLINE", now());
        assertThat(record(17).backfillFailingSince()).isEqualTo(now().minus(Duration.ofHours(2)));
        clock.tick(Duration.ofMinutes(5));

        assertThat(settlement.reopen(List.of(17L), now())).containsExactly(17L);
        assertThat(record(17).backfillFailingSince()).isNull();

        clock.tick(Duration.ofSeconds(1));
        backOff(17);
        assertThat(record(17).backfillFailingSince()).as("the clock starts at the new failure").isEqualTo(now());
    }

    @Test
    void aReplayedMessageOwesAMarkWhoseFailuresStartAnew() {
        enqueue(17);
        queue.recordFailure(17, ErrorClass.UNSUPPORTED, "no processor for FLUP", now(), now());
        assertThat(queue.exhaust(17, now())).isTrue();
        backOff(17);
        assertThat(record(17).backfillFailingSince()).isEqualTo(now());
        clock.tick(Duration.ofMinutes(5));

        assertThat(replays.replay(List.of(17L), Set.of(ErrorClass.EXHAUSTED), now())).containsExactly(17L);

        assertThat(record(17).backfillFailingSince()).isNull();
    }

    // --- abandoned ---

    @Test
    void anAbandonedMarkIsNotMarkedAndNotScanned() {
        ended(17);
        clock.tick(Duration.ofSeconds(7));

        assertThat(backfillMarks.backfillAbandoned(17, "MISSING_ROW", now())).isTrue();

        var record = record(17);
        assertThat(record.backfillAbandonedAt()).isEqualTo(now());
        assertThat(record.backfillAbandonedReason()).isEqualTo("MISSING_ROW");
        assertThat(record.backfillAt()).as("abandoned is not marked").isNull();
        assertThat(record.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(backfillMarks.backfillDue(now(), now().plus(R), BATCH)).isEmpty();
    }

    // --- reopen ---

    @Test
    void reopeningClearsAbandonmentAndReconciliationAndMakesTheRowsDueAtOnce() {
        ended(17, 18, 19, 20);
        backOff(17);
        backOff(18);
        backfillMarks.backfillAbandoned(17, "MISSING_ROW", now());
        backfillMarks.backfillAbandoned(18, "TRANSIENT_DEADLINE", now());
        settlement.reconcile(18, "ops-li", "checked in the mailbox", now());
        backfillMarks.backfillConfirmed(19, now());
        backOff(20);
        var confirmed = record(19);
        var owed = record(20);
        clock.tick(Duration.ofMinutes(5));

        var reopened = settlement.reopen(List.of(17L, 18L, 19L, 20L, 404L), now());

        assertThat(reopened).containsExactlyInAnyOrder(17L, 18L);
        for (long msgId : new long[] {17, 18}) {
            assertThat(record(msgId).backfillAbandonedAt()).isNull();
            assertThat(record(msgId).backfillAbandonedReason()).isNull();
            assertThat(record(msgId).backfillAt()).isNull();
        }
        assertThat(due()).as("due at once, the backoff of before forgotten").containsExactly(17L, 18L);
        assertThat(record(19)).as("not abandoned: left alone").isEqualTo(confirmed);
        assertThat(record(20)).as("not abandoned: left alone").isEqualTo(owed);
        assertThat(backfillMarks.abandonedMarks(BATCH)).isEmpty();
        assertThat(backfillMarks.backfillBacklog()).isEqualTo(new BackfillMarks.BackfillBacklog(3, 0, 0));

        // Abandoned again later, the row is no longer reconciled: the old reconciliation went with the reopening.
        backfillMarks.backfillAbandoned(18, "TRANSIENT_DEADLINE", now());
        assertThat(backfillMarks.abandonedMarks(BATCH)).singleElement().satisfies(mark -> {
            assertThat(mark.record().msgId()).isEqualTo(18L);
            assertThat(mark.reconciledAt()).isNull();
            assertThat(mark.reconciledBy()).isNull();
            assertThat(mark.note()).isNull();
        });
    }

    @Test
    void reopeningNothingAbandonedReopensNothing() {
        ended(17);

        assertThat(settlement.reopen(List.of(17L, 404L), now())).isEmpty();
        assertThat(settlement.reopen(List.of(), now())).isEmpty();
    }

    // --- reconcile ---

    @Test
    void onlyAnAbandonedRowCanBeReconciled() {
        ended(17, 18, 19);
        enqueue(20);
        backfillMarks.backfillAbandoned(17, "MISSING_ROW", now());
        backfillMarks.backfillConfirmed(18, now());

        assertThat(settlement.reconcile(17, "ops-li", "purged by the DBA", now())).isTrue();
        assertThat(settlement.reconcile(18, "ops-li", "confirmed", now())).as("confirmed").isFalse();
        assertThat(settlement.reconcile(19, "ops-li", "owed", now())).as("owed").isFalse();
        assertThat(settlement.reconcile(20, "ops-li", "open", now())).as("open").isFalse();
        assertThat(settlement.reconcile(404, "ops-li", "unknown", now())).as("unknown").isFalse();

        assertThat(backfillMarks.abandonedMarks(BATCH)).extracting(mark -> mark.record().msgId()).containsExactly(17L);
        assertThat(backfillMarks.backfillBacklog()).isEqualTo(new BackfillMarks.BackfillBacklog(1, 1, 0));
    }

    @Test
    void aReconciliationIsNotAMark() {
        ended(17);
        backfillMarks.backfillAbandoned(17, "MISSING_ROW", now());

        settlement.reconcile(17, "ops-li", "purged by the DBA", now());

        assertThat(record(17).backfillAt()).isNull();
        assertThat(record(17).backfillAbandonedAt()).isNotNull();
        assertThat(backfillMarks.backfillDue(now(), now().plus(R), BATCH)).isEmpty();
    }

    // --- abandonedMarks ---

    @Test
    void abandonedMarksAreListedOldestFirstWithTheirReconciliation() {
        ended(10, 20, 30, 40, 50);
        var t1 = now();
        backfillMarks.backfillAbandoned(30, "MISSING_ROW", t1);
        clock.tick(Duration.ofMinutes(1));
        var t2 = now();
        backfillMarks.backfillAbandoned(10, "TRANSIENT_DEADLINE", t2);
        clock.tick(Duration.ofMinutes(1));
        backfillMarks.backfillAbandoned(20, "MISSING_ROW", now());
        backfillMarks.backfillConfirmed(40, now());
        clock.tick(Duration.ofMinutes(1));
        var reconciledAt = now();
        settlement.reconcile(10, "ops-li", "row purged by the mailbox DBA", reconciledAt);

        var marks = backfillMarks.abandonedMarks(BATCH);

        assertThat(marks).extracting(mark -> mark.record().msgId()).containsExactly(30L, 10L, 20L);
        assertThat(marks.get(0).record().backfillAbandonedReason()).isEqualTo("MISSING_ROW");
        assertThat(marks.get(0).record().backfillAbandonedAt()).isEqualTo(t1);
        assertThat(marks.get(0).reconciledAt()).isNull();
        assertThat(marks.get(0).reconciledBy()).isNull();
        assertThat(marks.get(0).note()).isNull();
        assertThat(marks.get(1).record().backfillAbandonedAt()).isEqualTo(t2);
        assertThat(marks.get(1).reconciledAt()).isEqualTo(reconciledAt);
        assertThat(marks.get(1).reconciledBy()).isEqualTo("ops-li");
        assertThat(marks.get(1).note()).isEqualTo("row purged by the mailbox DBA");
        assertThat(backfillMarks.abandonedMarks(2)).extracting(mark -> mark.record().msgId()).containsExactly(30L, 10L);
    }

    // --- backfillBacklog ---

    @Test
    void anEmptyStoreOwesNoMarks() {
        assertThat(backfillMarks.backfillBacklog()).isEqualTo(new BackfillMarks.BackfillBacklog(0, 0, 0));
    }

    @Test
    void theBackfillBacklogCountsOwedAndAbandonedMarks() {
        enqueue(1, 2);                      // open: owe nothing
        queue.recordFailure(2, ErrorClass.INFRA, "db down", now(), now());
        ended(3, 4, 5, 6, 7, 8, 9);
        backOff(4);                         // 3, 4: owed (backed off or not)
        backfillMarks.backfillConfirmed(5, now()); // 5: confirmed
        backfillMarks.backfillAbandoned(6, "MISSING_ROW", now());
        backfillMarks.backfillAbandoned(7, "TRANSIENT_DEADLINE", now());
        backfillMarks.backfillAbandoned(8, "MISSING_ROW", now());
        settlement.reconcile(8, "ops-li", "purged", now());
        backfillMarks.backfillConfirmed(9, now()); // 9: archived
        clock.tick(Duration.ofSeconds(1));
        assertThat(archiving.archive(record(9), now())).isTrue();

        assertThat(backfillMarks.backfillBacklog()).isEqualTo(new BackfillMarks.BackfillBacklog(2, 3, 2));
    }
}
