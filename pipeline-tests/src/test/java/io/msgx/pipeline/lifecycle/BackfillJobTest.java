package io.msgx.pipeline.lifecycle;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

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
        store.queue().finish(id, MessageEnd.succeeded("applied"), clock.instant());
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
    void a_mailbox_down_backs_off_and_abandons_only_once_R_has_passed_since_the_first_failure() {
        long id = ended("<MSG/>");
        mailbox.setUnavailable(true);
        var firstFailure = clock.instant();

        var first = job.runOnce();
        assertThat(first).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                f -> assertThat(f.abandoned()).isFalse());
        assertThat(record(id).backfillNextAt()).isEqualTo(clock.instant().plusSeconds(10));
        assertThat(record(id).backfillFailingSince()).isEqualTo(firstFailure);
        assertThat(job.runOnce()).as("not due during its backoff").isEmpty();

        for (int i = 0; i < 20; i++) {
            clock.tick(Duration.ofMinutes(5));
            job.runOnce();
        }
        assertThat(record(id).backfillAbandonedAt()).as("100 minutes < R").isNull();
        assertThat(record(id).backfillAttempts()).isGreaterThan(settings.backfillAlertAttempts() - 5);

        clock.set(firstFailure.plus(settings.backfillOverdue()));
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
    void a_message_that_ended_long_after_its_enqueue_is_not_abandoned_at_its_first_failure() {
        long id = mailbox.appendInbound("<MSG/>", null);
        store.queue().insertIfAbsent(id, null, clock.instant());
        clock.tick(settings.backfillOverdue().plusHours(1)); // a long backlog: it ends more than R after its enqueue
        store.queue().finish(id, MessageEnd.succeeded("applied"), clock.instant());
        mailbox.setUnavailable(true);
        var firstFailure = clock.instant();

        assertThat(job.runOnce()).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                f -> assertThat(f.abandoned()).as("its failures have only begun").isFalse());
        assertThat(record(id).backfillAbandonedAt()).isNull();
        assertThat(record(id).backfillFailingSince()).isEqualTo(firstFailure);
        assertThat(record(id).backfillNextAt()).as("backed off").isEqualTo(firstFailure.plusSeconds(10));

        clock.tick(Duration.ofSeconds(1));
        assertThat(job.runOnce()).as("overdue since its enqueue: tried every round whatever its backoff")
                .singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                        f -> assertThat(f.abandoned()).isFalse());
        assertThat(record(id).backfillAttempts()).isEqualTo(2);
        assertThat(record(id).backfillFailingSince()).as("a later failure keeps the start").isEqualTo(firstFailure);

        clock.set(firstFailure.plus(settings.backfillOverdue()).minusMillis(1));
        job.runOnce();
        assertThat(record(id).backfillAbandonedAt()).as("failing for less than R").isNull();

        clock.set(firstFailure.plus(settings.backfillOverdue()));
        assertThat(job.runOnce()).singleElement().isInstanceOfSatisfying(BackfillResult.TransientFailure.class,
                f -> assertThat(f.abandoned()).isTrue());
        assertThat(record(id).backfillAbandonedReason()).isEqualTo("TRANSIENT_DEADLINE");
        assertThat(record(id).backfillAt()).isNull();
    }

    @Test
    void one_stuck_row_fails_alone_and_the_others_of_its_batch_are_confirmed() {
        long first = ended("<MSG/>");
        long stuck = ended("<MSG/>");
        long last = ended("<MSG/>");
        var calls = new ArrayList<String>();
        var stuckJob = new BackfillJob(stuckOn(Set.of(stuck), calls), store.backfillMarks(), gate, settings, true, clock);

        var results = stuckJob.runOnce();

        assertThat(results).hasSize(3);
        assertThat(results.get(0)).isEqualTo(new BackfillResult.Written(first));
        assertThat(results.get(1)).isInstanceOfSatisfying(BackfillResult.TransientFailure.class, f -> {
            assertThat(f.msgId()).isEqualTo(stuck);
            assertThat(f.abandoned()).isFalse();
        });
        assertThat(results.get(2)).isEqualTo(new BackfillResult.Written(last));
        assertThat(calls).containsExactly("together", "alone " + first, "alone " + stuck, "alone " + last);
        for (long confirmed : new long[] {first, last}) {
            assertThat(mailbox.processedMarkOf(confirmed)).contains(clock.instant());
            assertThat(record(confirmed).backfillAt()).isEqualTo(clock.instant());
            assertThat(record(confirmed).backfillAttempts()).isZero();
        }
        assertThat(mailbox.processedMarkOf(stuck)).isEmpty();
        assertThat(record(stuck).backfillAt()).isNull();
        assertThat(record(stuck).backfillAttempts()).isEqualTo(1);
        assertThat(record(stuck).backfillFailingSince()).isEqualTo(clock.instant());
    }

    @Test
    void a_stuck_row_that_made_the_mailbox_look_down_is_tried_last_next_round() {
        long stuck = ended("<MSG/>");
        long second = ended("<MSG/>");
        long third = ended("<MSG/>");
        var calls = new ArrayList<String>();
        var stuckJob = new BackfillJob(stuckOn(Set.of(stuck), calls), store.backfillMarks(), gate, settings, true, clock);

        assertThat(stuckJob.runOnce()).as("the first row tried alone failed: the mailbox is taken as down")
                .hasSize(3).allSatisfy(r -> assertThat(r).isInstanceOf(BackfillResult.TransientFailure.class));
        assertThat(calls).containsExactly("together", "alone " + stuck);

        calls.clear();
        clock.tick(Duration.ofSeconds(10));
        var results = stuckJob.runOnce();

        assertThat(calls).containsExactly("together", "alone " + second, "alone " + third, "alone " + stuck);
        assertThat(results).hasSize(3);
        assertThat(results.get(0)).isInstanceOf(BackfillResult.TransientFailure.class);
        assertThat(results.subList(1, 3)).containsExactly(new BackfillResult.Written(second),
                new BackfillResult.Written(third));
        assertThat(record(stuck).backfillAttempts()).isEqualTo(2);
    }

    @Test
    void a_mailbox_down_costs_one_batch_attempt_and_one_single_attempt_not_one_per_row() {
        for (int i = 0; i < 5; i++) {
            ended("<MSG/>");
        }
        mailbox.setUnavailable(true);
        var calls = new ArrayList<String>();
        var downJob = new BackfillJob(stuckOn(Set.of(), calls), store.backfillMarks(), gate, settings, true, clock);

        var results = downJob.runOnce();

        assertThat(results).hasSize(5).allSatisfy(r -> assertThat(r).isInstanceOfSatisfying(
                BackfillResult.TransientFailure.class, f -> assertThat(f.abandoned()).isFalse()));
        assertThat(calls).hasSize(2).startsWith("together");
        assertThat(store.backfillMarks().backfillDue(clock.instant(), clock.instant().minus(settings.backfillOverdue()),
                10)).as("every row recorded failed and backed off").isEmpty();
    }

    @Test
    void dead_and_skipped_messages_are_marked_too_but_open_ones_are_not() {
        long dead = mailbox.appendInbound("<MSG/>", null);
        long open = mailbox.appendInbound("<MSG/>", null);
        store.queue().insertIfAbsent(dead, null, clock.instant());
        store.queue().insertIfAbsent(open, null, clock.instant());
        store.queue().finish(dead, MessageEnd.dead(ErrorClass.MALFORMED, "broken"), clock.instant());
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
        job.runOnce();
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

    /**
     * The test's mailbox, with its marking calls listed in {@code calls} ("together", "alone ID"): marking together
     * fails when one of {@code stuck} is among the rows, marking alone fails for a row of {@code stuck}, as a row the
     * AODB side keeps locked until a lock-wait timeout would.
     */
    private Mailbox stuckOn(Set<Long> stuck, List<String> calls) {
        return (Mailbox) Proxy.newProxyInstance(Mailbox.class.getClassLoader(), new Class<?>[] {Mailbox.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("markAllProcessed")) {
                        calls.add("together");
                        if (((Collection<?>) args[0]).stream().anyMatch(stuck::contains)) {
                            throw new MailboxUnavailableException("lock wait timeout on a stuck row", null);
                        }
                    } else if (method.getName().equals("markProcessed")) {
                        calls.add("alone " + args[0]);
                        if (stuck.contains(args[0])) {
                            throw new MailboxUnavailableException("lock wait timeout on row " + args[0], null);
                        }
                    }
                    try {
                        return method.invoke(mailbox, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
