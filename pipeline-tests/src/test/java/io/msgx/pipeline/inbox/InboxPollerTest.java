package io.msgx.pipeline.inbox;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InboxPollerTest {

    private static final Duration DELAY = Duration.ofSeconds(30);

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final List<long[]> released = new ArrayList<>();
    private final List<Long> lags = new ArrayList<>();
    private final PipelineMetrics metrics = new PipelineMetrics() {
        @Override
        public void permanentHoleReleased(long fromId, long toId) {
            released.add(new long[]{fromId, toId});
        }

        @Override
        public void watermarkLag(long ids) {
            lags.add(ids);
        }
    };
    private InboxPoller poller = poller(3);

    private InboxPoller poller(int batch) {
        return new InboxPoller(mailbox, store, clock, new InboxSettings(batch, DELAY), metrics);
    }

    @Test
    void contiguous_rows_are_enqueued_in_id_order_a_batch_at_a_time() {
        for (int i = 0; i < 5; i++) {
            mailbox.appendInbound("<MSG/>", null);
        }
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(3, 3));
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(2, 5));
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(0, 5));
        assertThat(enqueuedIds()).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(store.allRecords()).allSatisfy(r -> assertThat(r.enqueuedAt()).isEqualTo(clock.instant()));
    }

    @Test
    void the_mailbox_receive_time_is_copied_and_may_be_null() {
        var received = Instant.parse("2024-03-10T23:59:59.123Z");
        mailbox.appendInbound("<MSG/>", received);
        mailbox.appendInbound("<MSG/>", null);
        poller.pollOnce();
        assertThat(store.allRecords()).extracting(ProcRecord::receivedAt).containsExactly(received, null);
    }

    @Test
    void an_unreadable_mailbox_is_reported_and_moves_nothing() {
        mailbox.appendInbound("<MSG/>", null);
        mailbox.setUnavailable(true);
        assertThat(poller.pollOnce()).isInstanceOf(PollResult.MailboxUnavailable.class);
        assertThat(store.inboxCursor().load().watermark()).isZero();
        assertThat(store.allRecords()).isEmpty();
        mailbox.setUnavailable(false);
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(1, 1));
    }

    @Test
    void rows_after_a_young_gap_are_not_enqueued_and_a_late_commit_keeps_its_place() {
        mailbox.putInbound(1, "<MSG/>", null);
        mailbox.putInbound(2, "<MSG/>", null);
        mailbox.putInbound(4, "<MSG/>", null);
        var first = poller.pollOnce();
        assertThat(first).isEqualTo(new PollResult.HeldAtHole(2, 2, 3, clock.instant()));
        assertThat(enqueuedIds()).containsExactly(1L, 2L);

        clock.tick(Duration.ofSeconds(10));
        mailbox.putInbound(3, "<MSG/>", null);          // the late commit becomes visible
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(2, 4));
        assertThat(enqueuedIds()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(store.inboxCursor().load().holeSince()).isNull();
        assertThat(released).isEmpty();
    }

    @Test
    void a_gap_older_than_max_commit_delay_is_released_skipping_only_the_gap() {
        mailbox.putInbound(1, "<MSG/>", null);
        mailbox.putInbound(4, "<MSG/>", null);
        mailbox.putInbound(5, "<MSG/>", null);
        var seen = clock.instant();
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.HeldAtHole(1, 1, 2, seen));

        clock.tick(DELAY.minusMillis(1));
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.HeldAtHole(0, 1, 2, seen));

        clock.tick(Duration.ofMillis(1));
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.HoleReleased(3, 2, 3));
        assertThat(enqueuedIds()).as("nothing after the gap is enqueued in the releasing round").containsExactly(1L);
        assertThat(released).containsExactly(new long[]{2, 3});
        assertThat(store.inboxCursor().load().holeSince()).isNull();

        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(2, 5));
        assertThat(enqueuedIds()).containsExactly(1L, 4L, 5L);
    }

    @Test
    void the_watermark_lag_is_how_far_the_watermark_trails_the_highest_id_seen() {
        mailbox.putInbound(1, "<MSG/>", null);
        mailbox.putInbound(3, "<MSG/>", null);
        poller.pollOnce();
        assertThat(lags).containsExactly(2L);
    }

    @Test
    void the_gap_timer_survives_a_restart() {
        mailbox.putInbound(2, "<MSG/>", null);
        poller.pollOnce();
        clock.tick(DELAY);
        var restarted = poller(3);
        assertThat(restarted.pollOnce()).isEqualTo(new PollResult.HoleReleased(1, 1, 1));
    }

    @Test
    void a_new_gap_further_on_starts_its_own_timer() {
        mailbox.putInbound(2, "<MSG/>", null);
        mailbox.putInbound(4, "<MSG/>", null);
        poller.pollOnce();                                 // gap at 1, seen now
        clock.tick(DELAY);
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.HoleReleased(1, 1, 1));
        var secondSeen = clock.instant();
        assertThat(poller.pollOnce()).as("at most one gap per round; the next gap is new")
                .isEqualTo(new PollResult.HeldAtHole(1, 2, 3, secondSeen));
        clock.tick(DELAY.minusSeconds(1));
        assertThat(poller.pollOnce()).isInstanceOf(PollResult.HeldAtHole.class);
        clock.tick(Duration.ofSeconds(1));
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.HoleReleased(3, 3, 3));
    }

    @Test
    void a_row_enqueued_already_by_another_entry_is_no_error() {
        mailbox.appendInbound("<MSG/>", null);
        mailbox.appendInbound("<MSG/>", null);
        store.queue().insertIfAbsent(2, null, clock.instant());
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(1, 2));
        assertThat(enqueuedIds()).containsExactly(1L, 2L);
    }

    @Test
    void a_full_batch_without_a_gap_is_not_a_gap() {
        for (int i = 0; i < 3; i++) {
            mailbox.appendInbound("<MSG/>", null);
        }
        mailbox.putInbound(9, "<MSG/>", null);
        assertThat(poller.pollOnce()).isEqualTo(new PollResult.Advanced(3, 3));
        assertThat(store.inboxCursor().load().holeSince()).isNull();
    }

    private List<Long> enqueuedIds() {
        return store.allRecords().stream().map(ProcRecord::msgId).toList();
    }
}
