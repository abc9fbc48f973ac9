package io.msgx.pipeline.store;

import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every store must do to replay messages (seeds §9.1): one statement sends the listed {@code FAILED} and
 * {@code DEAD} rows of whitelisted error classes back to {@code PENDING}, resets their attempts, next attempt, error
 * class and text, and keeps their identity; nothing else is touched.
 */
public abstract class ReplayContract extends ProcStatesFixture {








    /** A failed attempt of class {@code errorClass}, retried in a minute. */
    private void failed(long msgId, ErrorClass errorClass) {
        assertThat(queue.recordFailure(msgId, errorClass, errorClass + " trouble", now().plusSeconds(60), now()))
                .isTrue();
    }

    /**
     * 10 FAILED(INFRA), 11 DEAD(EXHAUSTED), 12 DEAD(MALFORMED), 13 SUCCEEDED, 14 SKIPPED, 15 FAILED(CODEC_ERROR),
     * 16 PENDING.
     */
    private void everyKindOfRow() {
        enqueueBound(10, 11, 12, 13, 14, 15, 16);
        failed(10, ErrorClass.INFRA);
        failed(10, ErrorClass.INFRA);
        failed(11, ErrorClass.UNSUPPORTED);
        queue.exhaust(11, now());
        queue.finish(12, MessageEnd.dead(ErrorClass.MALFORMED, "not XML"), now());
        queue.finish(13, MessageEnd.succeeded("applied"), now());
        queue.finish(14, MessageEnd.skipped("ignored:LDM-*"), now());
        failed(15, ErrorClass.CODEC_ERROR);
    }

    @Test
    void theListedFailedAndDeadRowsOfWhitelistedClassesGoBackToPending() {
        everyKindOfRow();
        var before = List.of(record(12), record(13), record(14), record(15), record(16));
        clock.tick(Duration.ofMinutes(5));

        var replayed = replays.replay(List.of(10L, 11L, 12L, 13L, 14L, 15L, 16L, 404L),
                EnumSet.of(ErrorClass.INFRA, ErrorClass.EXHAUSTED), now());

        assertThat(replayed).containsExactlyInAnyOrder(10L, 11L);
        assertThat(List.of(record(12), record(13), record(14), record(15), record(16)))
                .as("not whitelisted, not failed or dead: untouched").isEqualTo(before);
        assertThat(queue.find(404)).isEmpty();
    }

    @Test
    void aReplayedRowStartsAgainKeepingItsIdentity() {
        enqueueBound(11);
        failed(11, ErrorClass.UNSUPPORTED);
        failed(11, ErrorClass.UNSUPPORTED);
        queue.exhaust(11, now());
        var dead = record(11);
        clock.tick(Duration.ofMinutes(5));

        assertThat(replays.replay(List.of(11L), Set.of(ErrorClass.EXHAUSTED), now())).containsExactly(11L);

        var replayed = record(11);
        assertThat(replayed.status()).isEqualTo(ProcStatus.PENDING);
        assertThat(replayed.attempts()).isZero();
        assertThat(replayed.nextAttemptAt()).isNull();
        assertThat(replayed.errorClass()).isNull();
        assertThat(replayed.lastError()).isNull();
        assertThat(replayed.identityKey()).isEqualTo(key(11));
        assertThat(replayed.updatedAt()).isEqualTo(now());
        assertThat(replayed.enqueuedAt()).isEqualTo(dead.enqueuedAt());
        assertThat(replayed.receivedAt()).isEqualTo(dead.receivedAt());
    }

    @Test
    void aReplayedRowIsNotItsOwnDuplicate() {
        enqueueBound(11, 12);
        queue.finish(11, MessageEnd.dead(ErrorClass.CODEC_ERROR, "bad FLTR"), now());
        replays.replay(List.of(11L), Set.of(ErrorClass.CODEC_ERROR), now());

        assertThat(IdentityBinder.bind(identities, queue, 11, key(11), now())).as("its own identity").isEqualTo(new IdentityBinding.Bound());
        queue.insertIfAbsent(20, null, now());
        assertThat(IdentityBinder.bind(identities, queue, 20, key(11), now())).as("a resent copy")
                .isEqualTo(new IdentityBinding.HeldBy(11));
    }

    @Test
    void aReplayedRowQueuesAgainAtItsOwnPlace() {
        enqueueBound(11, 12);
        queue.finish(11, MessageEnd.dead(ErrorClass.INTERNAL, "NPE"), now());
        assertThat(queue.head()).map(ProcRecord::msgId).contains(12L);

        replays.replay(List.of(11L), Set.of(ErrorClass.INTERNAL), now());

        assertThat(queue.head()).map(ProcRecord::msgId).contains(11L);
        assertThat(queries.backlog().pending()).isEqualTo(2);
        assertThat(queries.backlog().dead()).isZero();
    }

    @Test
    void aFailedRowOfAWhitelistedClassIsReplayedToo() {
        enqueueBound(10);
        failed(10, ErrorClass.INFRA);
        failed(10, ErrorClass.INFRA);

        assertThat(replays.replay(List.of(10L), Set.of(ErrorClass.INFRA), now())).containsExactly(10L);

        assertThat(record(10).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record(10).attempts()).isZero();
        assertThat(record(10).nextAttemptAt()).isNull();
    }

    @Test
    void endedRowsThatAreNotDeadAndOpenRowsThatAreNotFailedAreNeverReplayed() {
        everyKindOfRow();
        var before = List.of(record(13), record(14), record(16));

        assertThat(replays.replay(List.of(13L, 14L, 16L), EnumSet.allOf(ErrorClass.class), now())).isEmpty();

        assertThat(List.of(record(13), record(14), record(16))).isEqualTo(before);
    }

    @Test
    void aFlopSkippedBeforeItsFlightExistedIsReplayedButNoOtherSkip() {
        enqueueBound(20, 21, 22);
        queue.finish(20, MessageEnd.skipped(MessageReplays.UNKNOWN_FLIGHT), now());
        queue.finish(21, MessageEnd.skipped("no-match:deleted-flight"), now());
        queue.finish(22, MessageEnd.skipped("duplicate-of:7"), now());

        var replayed = replays.replay(List.of(20L, 21L, 22L), EnumSet.noneOf(ErrorClass.class), now());

        assertThat(replayed).containsExactly(20L);
        assertThat(record(20).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record(20).lastError()).isNull();
        assertThat(record(21).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(22).status()).isEqualTo(ProcStatus.SKIPPED);
    }

    @Test
    void onlyTheListedRowsAreReplayed() {
        everyKindOfRow();
        var other = record(11);

        assertThat(replays.replay(List.of(10L), EnumSet.allOf(ErrorClass.class), now())).containsExactly(10L);

        assertThat(record(11)).isEqualTo(other);
    }

    @Test
    void aReplayWithNothingWhitelistedOrNothingListedReplaysNothing() {
        everyKindOfRow();
        var before = List.of(record(10), record(11), record(12), record(15));

        assertThat(replays.replay(List.of(10L, 11L, 12L, 15L), Set.of(), now())).isEmpty();
        assertThat(replays.replay(List.of(), EnumSet.allOf(ErrorClass.class), now())).isEmpty();

        assertThat(List.of(record(10), record(11), record(12), record(15))).isEqualTo(before);
    }

    @Test
    void aRowReplayedAlreadyIsNotReplayedAgain() {
        everyKindOfRow();
        replays.replay(List.of(10L), Set.of(ErrorClass.INFRA), now());
        var pending = record(10);
        clock.tick(Duration.ofMinutes(1));

        assertThat(replays.replay(List.of(10L), Set.of(ErrorClass.INFRA), now())).isEmpty();

        assertThat(record(10)).isEqualTo(pending);
    }
}
