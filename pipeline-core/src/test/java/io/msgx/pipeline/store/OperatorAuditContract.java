package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.audit.Actor;
import io.msgx.pipeline.audit.AuditAction;
import io.msgx.pipeline.audit.AuditEntry;
import io.msgx.pipeline.audit.AuditOutcome;
import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.audit.AuditedAction;
import io.msgx.pipeline.lifecycle.LifecycleSettings;
import io.msgx.pipeline.lifecycle.RetentionJob;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.port.OperatorAudit.Filter;
import io.msgx.pipeline.record.DeadEvent;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every store's {@link OperatorAudit} must do (issue 36, D-137..D-139): keep each row as written and list them
 * newest first by time, operator and action; take a row in the transaction of the action it records, so that the two
 * commit or roll back together (a failing action leaves no row, a failing row undoes the action); record a refusal on
 * its own; and lose rows only to the retention, over any number of days. A store's test class extends this and
 * supplies a fresh, empty store per test.
 */
public abstract class OperatorAuditContract extends StoreContract {

    private final Actor ops = Actor.cli("ops", "cli@ops-host (os user ops)");
    private final Actor alice = Actor.console("alice", "10.1.2.3");

    private OperatorAudit audit() {
        return store().operatorAudit();
    }

    private List<AuditEntry> newest(Filter filter) {
        return audit().newestFirst(filter).stream().map(OperatorAudit.Stored::entry).toList();
    }

    private AuditEntry entry(Actor actor, AuditAction action, String items, AuditResult result) {
        return new AuditEntry(clock.instant(), actor, action, items, result);
    }

    /** A DEAD notification of {@code flid}: something an operator action can change. */
    private long deadEvent(String flid) {
        var store = store();
        long id = store.inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG,
                FlightId.of(flid), OutboxEvent.EventType.UPSERT, 1, 1, "{\"flid\":\"" + flid + "\"}", clock.instant())));
        store.deadLetters().recordDeliveryFailure(id, "RecordTooLargeException", clock.instant(), true, clock.instant());
        return id;
    }

    private List<Long> deadEvents() {
        return store().deadLetters().deadEvents(100).stream().map(DeadEvent::eventId).toList();
    }

    private AuditedAction purge(Actor actor, List<Long> ids) {
        return new AuditedAction(store(), clock, actor, AuditAction.EVENTS_PURGE, "events " + AuditResult.list(ids));
    }

    // --- rows as written, listed newest first ---

    @Test
    void aRowIsKeptAsWrittenWithEveryField() {
        var written = entry(alice, AuditAction.EVENTS_RESEND, "events 7, 8, 9",
                new AuditResult(AuditOutcome.PARTLY, "7, 8", "9", "not DEAD: left alone"));

        audit().append(written);

        var stored = audit().newestFirst(Filter.newest(10));
        assertThat(stored).singleElement().satisfies(row -> {
            assertThat(row.id()).isPositive();
            assertThat(row.entry()).isEqualTo(written);
            assertThat(row.entry().actor().channel()).isEqualTo(Actor.Channel.CONSOLE);
            assertThat(row.entry().actor().source()).isEqualTo("10.1.2.3");
        });
    }

    @Test
    void emptyPartsAreKeptAsNoneAndLongListsWhole() {
        var ids = IntStream.rangeClosed(1_000_000, 1_001_000).boxed().toList(); // far beyond 4000 bytes
        var written = entry(ops, AuditAction.REPLAY, "messages " + AuditResult.list(ids), AuditResult.of(ids, List.of(),
                null));

        audit().append(written);
        audit().append(entry(ops, AuditAction.EVENTS_RESEND_ALL, null, AuditResult.of(List.of(), List.of(), "")));

        var rows = newest(Filter.newest(10));
        assertThat(rows).hasSize(2);
        assertThat(rows).filteredOn(e -> e.action().equals("replay")).singleElement()
                .satisfies(e -> assertThat(e.result().changed()).isEqualTo(AuditResult.list(ids)))
                .isEqualTo(written);
        assertThat(rows).filteredOn(e -> e.action().equals("events-resend-all")).singleElement().satisfies(e -> {
            assertThat(e.items()).isNull();
            assertThat(e.result()).isEqualTo(new AuditResult(AuditOutcome.DONE, null, null, null));
        });
    }

    @Test
    void rowsAreListedNewestFirstAndFilteredBySinceOperatorActionAndLimit() {
        var first = entry(ops, AuditAction.SKIP, "message 1", AuditResult.done("message 1 SKIPPED", "why"));
        clock.tick(Duration.ofMinutes(1));
        var second = entry(alice, AuditAction.REPLAY, "messages 2", AuditResult.of(List.of(2L), List.of(), null));
        var sameTime = entry(ops, AuditAction.REPLAY, "messages 3", AuditResult.of(List.of(), List.of(3L), "state"));
        clock.tick(Duration.ofMinutes(1));
        var third = entry(ops, AuditAction.EVENTS_PURGE, "events 4", AuditResult.of(List.of(4L), List.of(), null));
        for (var entry : List.of(first, second, sameTime, third)) {
            audit().append(entry);
        }

        assertThat(newest(Filter.newest(10))).as("newest first; at one time, the later row first")
                .containsExactly(third, sameTime, second, first);
        assertThat(newest(Filter.newest(2))).containsExactly(third, sameTime);
        assertThat(newest(new Filter(second.at(), null, null, 10))).as("since, inclusive")
                .containsExactly(third, sameTime, second);
        assertThat(newest(new Filter(null, "ops", null, 10))).containsExactly(third, sameTime, first);
        assertThat(newest(new Filter(null, null, "replay", 10))).containsExactly(sameTime, second);
        assertThat(newest(new Filter(second.at(), "ops", "replay", 10))).containsExactly(sameTime);
        assertThat(newest(new Filter(null, "nobody", null, 10))).isEmpty();
    }

    // --- one transaction with the action ---

    @Test
    void anActionAndItsRowCommitTogether() {
        long dead = deadEvent("1001");
        long other = deadEvent("1002");

        var purged = purge(ops, List.of(dead, 404L)).run(tx -> tx.deadLetters().purgeDead(List.of(dead, 404L)),
                ids -> AuditResult.of(ids, List.of(404L), "not DEAD: left alone"));

        assertThat(purged).containsExactly(dead);
        assertThat(deadEvents()).containsExactly(other);
        assertThat(newest(Filter.newest(10))).containsExactly(new AuditEntry(clock.instant(), ops,
                AuditAction.EVENTS_PURGE, "events " + dead + ", 404",
                new AuditResult(AuditOutcome.PARTLY, Long.toString(dead), "404", "not DEAD: left alone")));
    }

    @Test
    void aRowAppendedInATransactionThatRollsBackIsGone() {
        assertThatThrownBy(() -> store().inTransaction(tx -> {
            tx.operatorAudit().append(entry(ops, AuditAction.SKIP, "message 1", AuditResult.done("SKIPPED", null)));
            throw new IllegalStateException("the action failed after its row");
        })).hasMessageContaining("the action failed");

        assertThat(audit().newestFirst(Filter.newest(10))).isEmpty();
    }

    @Test
    void anActionThatFailsLeavesNoRowAndChangesNothing() {
        long dead = deadEvent("1001");

        assertThatThrownBy(() -> purge(ops, List.of(dead)).<List<Long>>run(tx -> {
            tx.deadLetters().purgeDead(List.of(dead));
            throw new StoreUnavailableException("injected: the connection went away", null);
        }, ids -> AuditResult.of(ids, List.of(), null))).isInstanceOf(StoreUnavailableException.class);

        assertThat(deadEvents()).as("the purge rolled back").containsExactly(dead);
        assertThat(audit().newestFirst(Filter.newest(10))).as("no row of a failed action").isEmpty();
    }

    @Test
    void anAuditRowTheDatabaseRefusesRollsTheActionBack() {
        long dead = deadEvent("1001");
        probe.refuseAuditRowsOf("mallory");
        var mallory = Actor.console("mallory", "10.6.6.6");

        assertThatThrownBy(() -> purge(mallory, List.of(dead)).run(tx -> tx.deadLetters().purgeDead(List.of(dead)),
                ids -> AuditResult.of(ids, List.of(), null))).isInstanceOf(RuntimeException.class);

        assertThat(deadEvents()).as("the purge without its row rolled back").containsExactly(dead);
        assertThat(audit().newestFirst(Filter.newest(10))).isEmpty();

        purge(ops, List.of(dead)).run(tx -> tx.deadLetters().purgeDead(List.of(dead)),
                ids -> AuditResult.of(ids, List.of(), null));
        assertThat(deadEvents()).as("another operator's row is taken").isEmpty();
        assertThat(newest(Filter.newest(10))).extracting(e -> e.actor().name()).containsExactly("ops");
    }

    @Test
    void anActionThatRefusesItsArgumentsIsRolledBackAndRecordedRefused() {
        long dead = deadEvent("1001");

        assertThatThrownBy(() -> purge(alice, List.of(dead)).<List<Long>>run(tx -> {
            tx.deadLetters().purgeDead(List.of(dead));
            throw new IllegalArgumentException("no such thing");
        }, ids -> AuditResult.of(ids, List.of(), null))).isInstanceOf(IllegalArgumentException.class);

        assertThat(deadEvents()).containsExactly(dead);
        assertThat(newest(Filter.newest(10))).singleElement().satisfies(e -> {
            assertThat(e.result()).isEqualTo(AuditResult.refused("events " + dead, "no such thing"));
            assertThat(e.actor()).isEqualTo(alice);
        });
    }

    @Test
    void aRefusedActionIsRecordedOnItsOwn() {
        new AuditedAction(store(), clock, ops, AuditAction.REPLAY_CLASS, "class MALFORMED")
                .refused("not in msgx.replay.error-classes");

        assertThat(newest(Filter.newest(10))).containsExactly(new AuditEntry(clock.instant(), ops,
                AuditAction.REPLAY_CLASS, "class MALFORMED",
                new AuditResult(AuditOutcome.REFUSED, null, "class MALFORMED", "not in msgx.replay.error-classes")));
    }

    // --- retention: the only deletion ---

    @Test
    void rowsRecordedBeforeTheCutoffAreDeletedAtMostLimitAtATime() {
        for (int i = 0; i < 3; i++) {
            audit().append(entry(ops, AuditAction.SKIP, "message " + i, AuditResult.done("SKIPPED", null)));
            clock.tick(Duration.ofDays(1));
        }
        var cutoff = clock.instant().minus(Duration.ofDays(1)); // the last row was recorded at the cutoff exactly
        var housekeeping = store().housekeeping();

        assertThat(housekeeping.deleteOperatorAuditBefore(cutoff, 1)).isEqualTo(1);
        assertThat(housekeeping.deleteOperatorAuditBefore(cutoff, 5)).isEqualTo(1);
        assertThat(housekeeping.deleteOperatorAuditBefore(cutoff, 5)).isZero();
        assertThat(newest(Filter.newest(10))).extracting(AuditEntry::items).containsExactly("message 2");
    }

    /**
     * Time is tested over time: two and a half years of days, an action a day and the daily retention job on the
     * injected clock; every day the trail holds exactly the rows of the last {@code msgx.audit.retention} (400 days).
     */
    @Test
    void theDailyRetentionKeepsExactlyTheLast400DaysOverTwoAndAHalfYears() {
        var retention = RetentionJob.Settings.defaults();
        assertThat(retention.operatorAudit()).isEqualTo(Duration.ofDays(400));
        var job = new RetentionJob(store(), LifecycleSettings.defaults(), retention, OperationDayRule.defaults(), clock);
        var recorded = new ArrayList<Instant>();
        int deleted = 0;
        for (int day = 0; day < 900; day++) {
            audit().append(entry(ops, AuditAction.REQUEST_SCHEDULE, "day " + day, AuditResult.done("request", null)));
            recorded.add(clock.instant());
            clock.tick(Duration.ofDays(1));
            deleted += job.runOnce().operatorAudit();
            var cutoff = clock.instant().minus(retention.operatorAudit());
            long kept = recorded.stream().filter(at -> !at.isBefore(cutoff)).count();
            if (day % 50 == 0 || day > 895) {
                assertThat(audit().newestFirst(Filter.newest(1000))).as("day %d", day).hasSize((int) kept)
                        .allSatisfy(row -> assertThat(row.entry().at()).isAfterOrEqualTo(cutoff));
            }
        }
        assertThat(deleted).isEqualTo(900 - 400);
        assertThat(newest(Filter.newest(1))).extracting(AuditEntry::items).containsExactly("day 899");
    }
}
