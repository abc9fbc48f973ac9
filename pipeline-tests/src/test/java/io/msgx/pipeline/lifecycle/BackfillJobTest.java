package io.msgx.pipeline.lifecycle;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.Terminal;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BackfillJobTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final LifecycleSettings settings = LifecycleSettings.defaults();
    private final MessageLifecycleGate gate = new MessageLifecycleGate();
    private final BackfillJob job = new BackfillJob(mailbox, store.backfillMarks(), gate, settings, true, clock);

    private long ended(String xml) {
        long id = mailbox.appendInbound(xml, Instant.parse("2020-01-01T00:00:00Z"));
        store.queue().insertIfAbsent(id, Instant.parse("2020-01-01T00:00:00Z"), clock.instant());
        store.queue().finish(id, Terminal.succeeded("applied"), clock.instant());
        return id;
    }

    @Test
    void an_empty_mark_is_written_and_confirmed() {
        long id = ended("<MSG/>");
        assertThat(job.runOnce()).containsExactly(new BackfillResult.Written(id));
        assertThat(mailbox.processedMarkOf(id)).contains(clock.instant());
        assertThat(record(id).backfillAt()).isEqualTo(clock.instant());
        assertThat(job.runOnce()).as("a confirmed mark is not written again").isEmpty();
    }

    @Test
    void an_existing_mark_is_kept_and_counts_as_success() {
        long id = ended("<MSG/>");
        var earlier = clock.instant().minusSeconds(60);
        mailbox.markProcessed(id, earlier);
        assertThat(job.runOnce()).containsExactly(new BackfillResult.AlreadyMarked(id));
        assertThat(mailbox.processedMarkOf(id)).contains(earlier);
        assertThat(record(id).backfillAt()).isNotNull();
    }

    @Test
    void a_row_deleted_after_enqueue_is_abandoned_at_once_and_not_marked() {
        long id = ended("<MSG/>");
        mailbox.deleteInbound(id);
        assertThat(job.runOnce()).containsExactly(new BackfillResult.RowMissing(id));
        assertThat(record(id).backfillAbandonedReason()).isEqualTo("MISSING_ROW");
        assertThat(record(id).backfillAt()).as("abandoned is not marked").isNull();
        assertThat(store.backfillMarks().abandonedMarks(10)).extracting(m -> m.record().msgId()).containsExactly(id);
    }

    @Test
    void a_mailbox_down_backs_off_and_abandons_only_once_R_has_passed_since_enqueue() {
        long id = ended("<MSG/>");
        mailbox.setUnavailable(true);

        var first = job.runOnce();
        assertThat(first).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                f -> assertThat(f.abandoned()).isFalse());
        assertThat(record(id).backfillNextAt()).isEqualTo(clock.instant().plusSeconds(10));
        assertThat(job.runOnce()).as("not due during its backoff").isEmpty();

        for (int i = 0; i < 20; i++) {
            clock.tick(Duration.ofMinutes(5));
            job.runOnce();
        }
        assertThat(record(id).backfillAbandonedAt()).as("100 minutes < R").isNull();
        assertThat(record(id).backfillAttempts()).isGreaterThan(settings.backfillAlertAttempts() - 5);

        clock.set(record(id).enqueuedAt().plus(settings.backfillOverdue()));
        var last = job.runOnce();
        assertThat(last).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                f -> assertThat(f.abandoned()).isTrue());
        assertThat(record(id).backfillAbandonedReason()).isEqualTo("TRANSIENT_DEADLINE");
        assertThat(record(id).backfillAt()).isNull();
    }

    @Test
    void an_overdue_row_is_tried_every_round_whatever_its_backoff_says() {
        long id = ended("<MSG/>");
        mailbox.setUnavailable(true);
        job.runOnce();
        store.backfillMarks().backfillFailed(id, clock.instant().plus(Duration.ofDays(1)), clock.instant());
        clock.tick(settings.backfillOverdue().minusSeconds(1));
        assertThat(job.runOnce()).as("within R the backoff holds").isEmpty();
        mailbox.setUnavailable(false);
        clock.tick(Duration.ofSeconds(2));
        assertThat(job.runOnce()).containsExactly(new BackfillResult.Written(id));
    }

    @Test
    void after_the_first_transient_failure_the_round_stops_calling_the_mailbox() {
        ended("<MSG/>");
        ended("<MSG/>");
        mailbox.setUnavailable(true);
        var results = job.runOnce();
        assertThat(results).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(BackfillResult.TransientFailure.class));
    }

    @Test
    void dead_and_skipped_messages_are_marked_too_but_open_ones_are_not() {
        long dead = mailbox.appendInbound("<MSG/>", null);
        long open = mailbox.appendInbound("<MSG/>", null);
        store.queue().insertIfAbsent(dead, null, clock.instant());
        store.queue().insertIfAbsent(open, null, clock.instant());
        store.queue().finish(dead, Terminal.dead(ErrorClass.MALFORMED, "broken"), clock.instant());
        assertThat(job.runOnce()).containsExactly(new BackfillResult.Written(dead));
        assertThat(mailbox.processedMarkOf(open)).isEmpty();
    }

    @Test
    void a_shadow_deployment_never_writes_to_the_mailbox() {
        long id = ended("<MSG/>");
        var shadow = new BackfillJob(new io.msgx.pipeline.mailbox.ReadOnlyMailbox(mailbox), store.backfillMarks(), gate, settings, false, clock);
        assertThat(shadow.runOnce()).isEmpty();
        assertThat(mailbox.processedMarkOf(id)).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                        new io.msgx.pipeline.mailbox.ReadOnlyMailbox(mailbox).markProcessed(id, clock.instant()))
                .hasMessageContaining("msgx.mailbox.read-only=true");
    }

    @Test
    void an_operator_reopens_an_abandoned_row_and_it_is_marked_next_round() {
        long id = ended("<MSG/>");
        mailbox.setUnavailable(true);
        clock.tick(settings.backfillOverdue());
        job.runOnce();
        assertThat(record(id).backfillAbandonedReason()).isEqualTo("TRANSIENT_DEADLINE");
        mailbox.setUnavailable(false);

        assertThat(new MarkSettlement(store).reopen(List.of(id), clock.instant())).containsExactly(id);
        assertThat(job.runOnce()).containsExactly(new BackfillResult.Written(id));
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }
}
