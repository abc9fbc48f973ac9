package io.msgx.pipeline.store;

import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.record.InboxCursor;
import io.msgx.pipeline.record.MessageEnd;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What every {@link InboxCursors} must do: the single-row cursor, its hole timer, and cut-over seeding. */
public abstract class InboxCursorContract extends StoreContract {

    @Test
    void aFreshCursorIsAtZeroWithNoHoleAndNeverSeeded() {
        assertThat(store().inboxCursor().load()).isEqualTo(new InboxCursor(0, null, null));
    }

    @Test
    void saveOverwritesTheWatermarkAndTheHoleTimer() {
        var cursors = store().inboxCursor();
        var holeSeen = clock.instant();

        cursors.save(120, holeSeen);
        assertThat(cursors.load()).isEqualTo(new InboxCursor(120, holeSeen, null));

        clock.tick(Duration.ofSeconds(30));
        cursors.save(125, null);
        assertThat(cursors.load()).isEqualTo(new InboxCursor(125, null, null));
    }

    @Test
    void saveKeepsTheSeedingTime() {
        var cursors = store().inboxCursor();
        var seededAt = clock.instant();
        cursors.seed(1_000, seededAt);
        clock.tick(Duration.ofMinutes(1));

        cursors.save(1_010, null);

        assertThat(cursors.load()).isEqualTo(new InboxCursor(1_010, null, seededAt));
    }

    @Test
    void aFreshInstanceIsSeeded() {
        var cursors = store().inboxCursor();
        var seededAt = clock.instant();

        assertThat(cursors.seed(5_000, seededAt)).isTrue();

        assertThat(cursors.load()).isEqualTo(new InboxCursor(5_000, null, seededAt));
    }

    /**
     * Issue 33: a fresh instance that met the mailbox's first rows far above 1 waits at a hole with a timer; seeding
     * kept that timer, so the next hole after the seeded watermark inherited its age and could be released at once,
     * losing a message that was still being committed. Seeding starts with no hole.
     */
    @Test
    void seedingClearsTheHoleTimerOfTheFreshInstance() {
        var cursors = store().inboxCursor();
        cursors.save(0, clock.instant().minus(Duration.ofHours(1))); // mailbox ID 1 missing for an hour

        assertThat(cursors.seed(5_000, clock.instant())).isTrue();

        assertThat(cursors.load()).isEqualTo(new InboxCursor(5_000, null, clock.instant()));
    }

    @Test
    void seedingTwiceIsRefused() {
        var cursors = store().inboxCursor();
        var firstSeed = clock.instant();
        cursors.seed(5_000, firstSeed);
        clock.tick(Duration.ofMinutes(1));

        assertThat(cursors.seed(9_000, clock.instant())).isFalse();

        assertThat(cursors.load()).isEqualTo(new InboxCursor(5_000, null, firstSeed));
    }

    @Test
    void seedingIsRefusedOnceTheWatermarkMoved() {
        var cursors = store().inboxCursor();
        cursors.save(3, null);

        assertThat(cursors.seed(5_000, clock.instant())).isFalse();

        assertThat(cursors.load()).isEqualTo(new InboxCursor(3, null, null));
    }

    @Test
    void seedingIsRefusedOnceAnyMessageWasEnqueued() {
        var store = store();
        store.queue().insertIfAbsent(1, null, clock.instant());

        assertThat(store.inboxCursor().seed(5_000, clock.instant())).isFalse();

        assertThat(store.inboxCursor().load()).isEqualTo(new InboxCursor(0, null, null));
    }

    @Test
    void seedingIsRefusedEvenWhenEveryEnqueuedMessageHasEnded() {
        var store = store();
        store.queue().insertIfAbsent(1, null, clock.instant());
        store.queue().finish(1, MessageEnd.succeeded("applied"), clock.instant());

        assertThat(store.inboxCursor().seed(5_000, clock.instant())).isFalse();
    }

    @Test
    void theCursorCanBeMovedInsideATransaction() {
        var store = store();
        var holeSeen = clock.instant();

        store.inTransaction(tx -> {
            tx.inboxCursor().save(42, holeSeen);
            assertThat(tx.inboxCursor().load()).isEqualTo(new InboxCursor(42, holeSeen, null));
            return null;
        });

        assertThat(store.inboxCursor().load()).isEqualTo(new InboxCursor(42, holeSeen, null));
    }
}
