package io.msgx.pipeline.store;

import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every store must do to archive processing records (seeds §9.3, G-PROC-HST): which terminal rows are
 * candidates (backfill settled, threshold past, counted from {@code UPDATED_AT}), the copy to
 * {@code PROC_STATE_HST} and the dedup shadow left behind, the refusal of a row that changed after it was listed,
 * the shadow's place (holds its identity; never a head, never scanned for backfill, never counted), and forgetting
 * shadows. A store's test class extends this and supplies a fresh, empty store per test.
 */
public abstract class ArchiveContract extends ProcStatesFixture {

    private static final int BATCH = 50;
    private static final Duration R = Duration.ofHours(24);

    /** Enqueued, ended and its mark confirmed, all now. */
    private void settled(long... msgIds) {
        for (long msgId : msgIds) {
            enqueueBound(msgId);
            assertThat(queue.finish(msgId, MessageEnd.succeeded("applied"), now())).isTrue();
            assertThat(backfillMarks.backfillConfirmed(msgId, now())).isTrue();
        }
    }

    private List<Long> candidates(Instant settledBefore) {
        return archive.archiveCandidates(settledBefore, BATCH).stream().map(ProcRecord::msgId).toList();
    }

    private Instant farFuture() {
        return now().plus(Duration.ofDays(3650));
    }

    /** Lists the message as a candidate and archives it now. */
    private ProcRecord archived(long msgId) {
        var candidate = archive.archiveCandidates(farFuture(), BATCH).stream()
                .filter(r -> r.msgId() == msgId).findFirst()
                .orElseThrow(() -> new AssertionError("message " + msgId + " is no candidate"));
        assertThat(archiving.archive(candidate, now())).isTrue();
        return candidate;
    }

    // --- candidates ---

    @Test
    void aConfirmedRowIsACandidateOnceTheThresholdPassedItsLastUpdate() {
        enqueueBound(17);
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        clock.tick(Duration.ofHours(1));
        var confirmedAt = now();
        backfillMarks.backfillConfirmed(17, confirmedAt);

        assertThat(candidates(confirmedAt)).as("the confirmation advanced UPDATED_AT").isEmpty();
        assertThat(candidates(confirmedAt.plusMillis(1))).containsExactly(17L);
        assertThat(archive.archiveCandidates(confirmedAt.plusMillis(1), BATCH)).containsExactly(record(17));
    }

    @Test
    void anAbandonedRowIsACandidateOnlyOnceReconciled() {
        enqueueBound(18);
        queue.finish(18, MessageEnd.dead(ErrorClass.MALFORMED, "not XML"), now());
        backfillMarks.backfillAbandoned(18, "MISSING_ROW", now());
        clock.tick(Duration.ofDays(1));

        assertThat(candidates(farFuture())).as("abandoned, not reconciled").isEmpty();

        var reconciledAt = now();
        assertThat(settlement.reconcile(18, "ops-li", "purged by the DBA", reconciledAt)).isTrue();

        assertThat(candidates(reconciledAt)).as("the threshold counts from the reconciliation").isEmpty();
        assertThat(candidates(reconciledAt.plusMillis(1))).containsExactly(18L);
    }

    @Test
    void rowsOwingTheirMarkAndOpenRowsAreNeverCandidates() {
        enqueueBound(19, 20, 21, 22);
        queue.finish(19, MessageEnd.succeeded("applied"), now());
        queue.recordFailure(21, ErrorClass.INFRA, "db down", now(), now());
        queue.finish(22, MessageEnd.skipped("ignored:LDM-*"), now());
        backfillMarks.backfillFailed(22, now().plusSeconds(60), now());

        assertThat(candidates(farFuture())).isEmpty();
    }

    @Test
    void candidatesAreOldestFirstAndLimited() {
        settled(31);
        clock.tick(Duration.ofMinutes(1));
        settled(30);
        clock.tick(Duration.ofMinutes(1));
        settled(32);

        assertThat(candidates(farFuture())).containsExactly(31L, 30L, 32L);
        assertThat(archive.archiveCandidates(farFuture(), 2)).extracting(ProcRecord::msgId).containsExactly(31L, 30L);
    }

    // --- archive ---

    @Test
    void archivingCopiesTheRowToHistoryAndLeavesItsShadow() {
        enqueueBound(17);
        queue.recordFailure(17, ErrorClass.INFRA, "db down", now().plusSeconds(5), now());
        queue.finish(17, MessageEnd.dead(ErrorClass.PROTOCOL, "RECS 3 but 2 records"), now());
        backfillMarks.backfillFailed(17, now().plusSeconds(30), now());
        clock.tick(Duration.ofMinutes(1));
        backfillMarks.backfillConfirmed(17, now());
        clock.tick(Duration.ofDays(2));
        var candidate = archive.archiveCandidates(now(), BATCH).get(0);

        assertThat(archiving.archive(candidate, now())).isTrue();

        assertThat(probe.countProcessingHistory(17)).isEqualTo(1);
        var shadow = record(17);
        assertThat(shadow.msgId()).isEqualTo(17);
        assertThat(shadow.status()).isEqualTo(ProcStatus.ARCHIVED);
        assertThat(shadow.identityKey()).isEqualTo(key(17));
        assertThat(shadow.attempts()).isZero();
        assertThat(shadow.nextAttemptAt()).isNull();
        assertThat(shadow.errorClass()).isNull();
        assertThat(shadow.lastError()).isNull();
        assertThat(shadow.receivedAt()).isNull();
        assertThat(shadow.updatedAt()).isEqualTo(now());
        assertThat(shadow.backfillNextAt()).isNull();
        assertThat(shadow.backfillAt()).isNull();
        assertThat(shadow.backfillAttempts()).isZero();
        assertThat(shadow.backfillAbandonedAt()).isNull();
        assertThat(shadow.backfillAbandonedReason()).isNull();
        assertThat(shadow.backfillFailingSince()).isNull();
    }

    @Test
    void theHistoryKeepsTheRowAsItWasListed() {
        enqueueBound(17);
        queue.finish(17, MessageEnd.skipped("duplicate-of:3"), now());
        backfillMarks.backfillAbandoned(17, "TRANSIENT_DEADLINE", now());
        settlement.reconcile(17, "ops-li", "checked", now());
        clock.tick(Duration.ofDays(2));
        var candidate = archive.archiveCandidates(now(), BATCH).get(0);

        assertThat(archiving.archive(candidate, now())).isTrue();

        assertThat(probe.processingHistory(17)).contains(candidate);
    }

    @Test
    void theHistoryKeepsWhenTheFailuresOfAnAbandonedMarkBegan() {
        enqueueBound(17);
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        var firstFailure = now();
        backfillMarks.backfillFailed(17, now().plusSeconds(10), now());
        clock.tick(Duration.ofHours(2));
        backfillMarks.backfillAbandoned(17, "TRANSIENT_DEADLINE", now());
        settlement.reconcile(17, "ops-li", "marked by hand", now());
        clock.tick(Duration.ofDays(2));
        var candidate = archive.archiveCandidates(now(), BATCH).get(0);

        assertThat(archiving.archive(candidate, now())).isTrue();

        assertThat(probe.processingHistory(17)).map(ProcRecord::backfillFailingSince).contains(firstFailure);
        assertThat(record(17).backfillFailingSince()).as("not kept in the shadow").isNull();
    }

    @Test
    void aRowReplayedAfterItWasListedIsNotArchivedAndNothingIsWritten() {
        enqueueBound(17);
        queue.recordFailure(17, ErrorClass.UNSUPPORTED, "no processor for FLUP", now(), now());
        queue.exhaust(17, now());
        backfillMarks.backfillConfirmed(17, now());
        clock.tick(Duration.ofDays(2));
        var candidate = archive.archiveCandidates(now(), BATCH).get(0);
        assertThat(replays.replay(List.of(17L), Set.of(ErrorClass.EXHAUSTED), now())).containsExactly(17L);
        var replayed = record(17);

        assertThat(archiving.archive(candidate, now())).isFalse();

        assertThat(probe.countProcessingHistory(17)).isZero();
        assertThat(record(17)).isEqualTo(replayed);
        assertThat(queue.head()).map(ProcRecord::msgId).contains(17L);
    }

    @Test
    void aRowReopenedAfterItWasListedIsNotArchived() {
        enqueueBound(17);
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        backfillMarks.backfillAbandoned(17, "MISSING_ROW", now());
        settlement.reconcile(17, "ops-li", "purged", now());
        clock.tick(Duration.ofDays(2));
        var candidate = archive.archiveCandidates(now(), BATCH).get(0);
        clock.tick(Duration.ofSeconds(1));
        assertThat(settlement.reopen(List.of(17L), now())).containsExactly(17L);
        var reopened = record(17);

        assertThat(archiving.archive(candidate, now())).isFalse();

        assertThat(probe.countProcessingHistory(17)).isZero();
        assertThat(record(17)).isEqualTo(reopened);
    }

    @Test
    void aRowWhoseMarkIsStillOwedIsNotArchivedEvenWhenAskedDirectly() {
        enqueue(17);
        queue.finish(17, MessageEnd.succeeded("applied"), now());
        clock.tick(Duration.ofDays(2));

        assertThat(archiving.archive(record(17), now())).as("not settled: the copy refuses it").isFalse();

        assertThat(record(17).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(backfillMarks.backfillDue(now(), now(), 10)).extracting(ProcRecord::msgId).containsExactly(17L);
    }

    @Test
    void aCandidateIsArchivedOnce() {
        settled(17);
        clock.tick(Duration.ofDays(2));
        var candidate = archive.archiveCandidates(now(), BATCH).get(0);
        assertThat(archiving.archive(candidate, now())).isTrue();
        var shadow = record(17);
        clock.tick(Duration.ofSeconds(1));

        assertThat(archiving.archive(candidate, now())).isFalse();

        assertThat(probe.countProcessingHistory(17)).isEqualTo(1);
        assertThat(record(17)).isEqualTo(shadow);
        assertThat(candidates(farFuture())).as("a shadow is no candidate").isEmpty();
    }

    // --- the shadow ---

    @Test
    void theShadowStillHoldsItsIdentity() {
        settled(17);
        clock.tick(Duration.ofDays(2));
        archived(17);
        queue.insertIfAbsent(18, null, now());

        assertThat(IdentityBinder.bind(identities, queue, 18, key(17), now())).isEqualTo(new IdentityBinding.HeldBy(17));
        assertThat(record(18).identityKey()).isNull();
    }

    @Test
    void theShadowIsNeverTheHeadNeverScannedForBackfillAndNeverCounted() {
        settled(17);
        clock.tick(Duration.ofDays(2));
        archived(17);

        assertThat(queue.head()).isEmpty();
        assertThat(backfillMarks.backfillDue(now(), now().plus(R), BATCH)).as("even with everything overdue").isEmpty();
        assertThat(queries.backlog()).isEqualTo(new MessageQueries.Backlog(0, 0, 0, 0, 0, null));
        assertThat(backfillMarks.backfillBacklog()).isEqualTo(new BackfillMarks.BackfillBacklog(0, 0, 0));

        var enqueued = now();
        queue.insertIfAbsent(18, null, enqueued);
        assertThat(queue.head()).map(ProcRecord::msgId).contains(18L);
        assertThat(queries.backlog()).isEqualTo(new MessageQueries.Backlog(1, 0, 0, 0, 0, enqueued));
    }

    // --- forgetArchivedBefore ---

    @Test
    void shadowsArchivedBeforeTheCutoffAreForgotten() {
        settled(17, 18, 19, 20);
        clock.tick(Duration.ofDays(2));
        archived(17);
        clock.tick(Duration.ofMinutes(1));
        archived(18);
        clock.tick(Duration.ofMinutes(1));
        var lastArchived = now();
        archived(19);
        var notArchived = record(20);

        assertThat(archive.forgetArchivedBefore(lastArchived, BATCH)).isEqualTo(2);

        assertThat(queue.find(17)).isEmpty();
        assertThat(queue.find(18)).isEmpty();
        assertThat(record(19).status()).isEqualTo(ProcStatus.ARCHIVED);
        assertThat(record(20)).as("settled long ago, but not archived").isEqualTo(notArchived);
        assertThat(probe.countProcessingHistory(17)).as("the history stays").isEqualTo(1);
    }

    @Test
    void forgettingHonoursItsLimit() {
        settled(17, 18, 19);
        clock.tick(Duration.ofDays(2));
        archived(19);
        clock.tick(Duration.ofMinutes(1));
        archived(17);
        clock.tick(Duration.ofMinutes(1));
        archived(18);

        assertThat(archive.forgetArchivedBefore(farFuture(), 2)).isEqualTo(2);
        assertThat(List.of(17L, 18L, 19L)).filteredOn(id -> queue.find(id).isPresent()).hasSize(1);

        assertThat(archive.forgetArchivedBefore(farFuture(), 2)).isEqualTo(1);
        assertThat(List.of(17L, 18L, 19L)).allSatisfy(id -> assertThat(queue.find(id)).isEmpty());
    }

    @Test
    void aForgottenIdentityIsFreeAgain() {
        settled(17);
        clock.tick(Duration.ofDays(2));
        archived(17);
        clock.tick(Duration.ofSeconds(1));
        archive.forgetArchivedBefore(now(), BATCH);
        queue.insertIfAbsent(18, null, now());

        assertThat(IdentityBinder.bind(identities, queue, 18, key(17), now())).isEqualTo(new IdentityBinding.Bound());
    }
}
