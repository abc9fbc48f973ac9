package io.msgx.pipeline.lifecycle;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Replay, archive and their race, over the in-memory mailbox and the H2 test store. */
class ReplayAndArchiveTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);
    private final SisMessages sis = new SisMessages();
    private final MessageLifecycleGate gate = new MessageLifecycleGate();
    private final LifecycleSettings settings = LifecycleSettings.defaults();
    private final ReplayService replay = new ReplayService(store.replays(), gate, ReplayService.DEFAULT_REPLAYABLE, clock);
    private final BackfillJob backfill = new BackfillJob(mailbox, store.backfillMarks(), gate, settings, true, clock);
    private final ProcStateArchiver archiver = new ProcStateArchiver(store, settings, 100, clock);

    @Test
    void only_whitelisted_classes_are_replayed_and_the_identity_is_kept() {
        long exhausted = mailbox.appendInbound(sis.other("ZZZZ", "X"), null);
        pipeline.runUntilQuiet();
        for (int i = 0; i < 4; i++) {
            clock.tick(Duration.ofMinutes(10));
            pipeline.runUntilQuiet();
        }
        long malformed = mailbox.appendInbound("<MSG>", null);
        long ok = mailbox.appendInbound(sis.schedule(fltr("1", "11MAR240835")), null);
        pipeline.runUntilQuiet();
        assertThat(record(exhausted).errorClass()).isEqualTo(ErrorClass.EXHAUSTED);
        var identity = record(exhausted).identityKey();

        var result = replay.replay(List.of(exhausted, malformed, ok), "ops@airport");

        assertThat(result.replayed()).containsExactly(exhausted);
        assertThat(result.refused()).containsExactly(malformed, ok);
        var replayed = record(exhausted);
        assertThat(replayed.status()).isEqualTo(ProcStatus.PENDING);
        assertThat(replayed.attempts()).isZero();
        assertThat(replayed.errorClass()).isNull();
        assertThat(replayed.lastError()).isNull();
        assertThat(replayed.identityKey()).isEqualTo(identity);
        assertThat(record(malformed).status()).isEqualTo(ProcStatus.DEAD);
    }

    @Test
    void a_replayed_message_is_processed_again_and_is_not_a_duplicate_of_itself() {
        long stand = mailbox.appendInbound(sis.flop(FlopSubtype.STND, "7", patch("STND", "9")), null);
        pipeline.runUntilQuiet();
        long other = mailbox.appendInbound(sis.schedule(fltr("7", "11MAR240835")), null);
        pipeline.runUntilQuiet();
        assertThat(record(stand).lastError()).isEqualTo("no-match:unknown-flight");
        assertThat(record(other).status()).isEqualTo(ProcStatus.SUCCEEDED);

        var queue = store.queue();
        long late = mailbox.appendInbound(sis.flop(FlopSubtype.STND, "7", patch("STND", "10")), null);
        pipeline.pollOnce();
        // Given up after recorded failures (an outage no longer uses attempts, D-18): the store's own calls.
        assertThat(queue.recordFailure(late, ErrorClass.INTERNAL, "defect", clock.instant(), clock.instant())).isTrue();
        assertThat(queue.exhaust(late, clock.instant())).isTrue();
        assertThat(queue.find(late).orElseThrow().errorClass()).isEqualTo(ErrorClass.EXHAUSTED);

        replay.replay(List.of(late), "ops");
        pipeline.runUntilQuiet();
        assertThat(record(late).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(store.allFlights()).singleElement().satisfies(f -> assertThat(f.stateVersion()).isEqualTo(2));
    }

    /**
     * Several FLOP bodies, one for a flight that does not exist yet (sis-format v3 §10, D-118): the message succeeds
     * for the others and names the unknown one; its replay, once the flight exists, applies only that body, so the
     * body applied before does not overwrite what came after it.
     */
    @Test
    void a_batch_applied_in_part_is_replayed_for_its_unknown_flights_only() {
        mailbox.appendInbound(sis.schedule(fltr("1", "11MAR240835")), null);
        long bodies = mailbox.appendInbound(sis.flops(FlopSubtype.STND, "1", patch("STND", "101"),
                "2", patch("STND", "201")), null);
        pipeline.runUntilQuiet();
        assertThat(record(bodies).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(bodies).lastError()).isEqualTo("applied: 1 flight(s) changed; no-match:unknown-flight 2");

        mailbox.appendInbound(sis.flop(FlopSubtype.STND, "1", patch("STND", "102")), null);
        pipeline.runUntilQuiet();
        replay.replay(List.of(bodies), "ops");
        pipeline.runUntilQuiet();
        assertThat(record(bodies).lastError()).as("replayed too early: still owing flight 2")
                .isEqualTo("applied: 1 flight(s) changed; no-match:unknown-flight 2");

        mailbox.appendInbound(sis.schedule(fltr("2", "11MAR240900")), null);
        pipeline.runUntilQuiet();
        var result = replay.replay(List.of(bodies), "ops");
        pipeline.runUntilQuiet();

        assertThat(result.replayed()).containsExactly(bodies);
        assertThat(record(bodies).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(bodies).lastError()).isEqualTo("applied: 1 flight(s) changed");
        assertThat(store.allFlights()).extracting(f -> f.flid().value() + "=" + f.fields().valueOf(
                io.msgx.domain.flight.FlightField.STND)).containsExactlyInAnyOrder("1=102", "2=201");
        assertThat(replay.replay(List.of(bodies), "ops").replayed()).as("nothing owed any more").isEmpty();
    }

    @Test
    void a_settled_record_is_archived_after_the_threshold_and_its_shadow_still_refuses_a_duplicate() {
        var xml = sis.schedule(fltr("1", "11MAR240835"));
        long original = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
        backfill.runOnce();
        assertThat(archiver.runOnce().archived()).as("not before archive-after").isZero();

        clock.tick(settings.archiveAfter().plusSeconds(1));
        assertThat(archiver.runOnce().archived()).isEqualTo(1);
        var shadow = record(original);
        assertThat(shadow.status()).isEqualTo(ProcStatus.ARCHIVED);
        assertThat(shadow.identityKey()).isNotNull();
        assertThat(shadow.lastError()).isNull();
        assertThat(store.processingHistoryCount(original)).isEqualTo(1);

        long duplicate = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
        assertThat(record(duplicate).lastError()).isEqualTo("duplicate-of:" + original);
        assertThat(store.queue().head()).as("a shadow is never the head").isEmpty();
    }

    @Test
    void an_abandoned_mark_is_archived_only_once_an_operator_reconciled_it() {
        long id = mailbox.appendInbound(sis.schedule(fltr("1", "11MAR240835")), null);
        pipeline.runUntilQuiet();
        mailbox.deleteInbound(id);
        backfill.runOnce();
        clock.tick(settings.archiveAfter().plusSeconds(1));
        assertThat(archiver.runOnce().archived()).isZero();

        assertThat(new MarkSettlement(store).reconcile(id, "ops@airport", "row purged by AODB, checked", clock.instant()))
                .isTrue();
        assertThat(store.backfillMarks().abandonedMarks(10)).singleElement()
                .satisfies(m -> assertThat(m.reconciledBy()).isEqualTo("ops@airport"));
        clock.tick(settings.archiveAfter().plusSeconds(1));
        assertThat(archiver.runOnce().archived()).isEqualTo(1);
    }

    @Test
    void a_replay_that_wins_the_race_keeps_its_row_out_of_the_archive() {
        long id = mailbox.appendInbound(sis.other("ZZZZ", "X"), null);
        pipeline.runUntilQuiet();
        for (int i = 0; i < 4; i++) {
            clock.tick(Duration.ofMinutes(10));
            pipeline.runUntilQuiet();
        }
        backfill.runOnce();
        clock.tick(settings.archiveAfter().plusSeconds(1));
        var listed = store.messageArchive().archiveCandidates(clock.instant().minus(settings.archiveAfter()), 10);
        assertThat(listed).extracting(ProcRecord::msgId).containsExactly(id);

        replay.replay(List.of(id), "ops");
        assertThat(new RecordArchiving(store).archive(listed.get(0), clock.instant())).isFalse();
        assertThat(record(id).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(store.processingHistoryCount(id)).isZero();
    }

    @Test
    void dedup_shadows_are_forgotten_after_the_dedup_memory() {
        var xml = sis.schedule(fltr("1", "11MAR240835"));
        long id = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
        backfill.runOnce();
        clock.tick(settings.archiveAfter().plusSeconds(1));
        archiver.runOnce();
        clock.tick(settings.dedupMemory());
        assertThat(archiver.runOnce().forgotten()).as("not a moment early").isZero();
        clock.tick(Duration.ofSeconds(1));
        assertThat(archiver.runOnce().forgotten()).isEqualTo(1);
        assertThat(store.queue().find(id)).isEmpty();

        long resent = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
        assertThat(record(resent).status()).as("past the dedup memory a resend is new again")
                .isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void inconsistent_time_constants_stop_start_up_naming_the_keys() {
        assertThatThrownBy(() -> new LifecycleSettings(Duration.ofDays(4), Duration.ofDays(3), Duration.ofDays(1),
                Duration.ofDays(1), Duration.ofDays(1), List.of(Duration.ofSeconds(1)), 3, 10))
                .hasMessageContaining("msgx.pipeline.backfill-overdue (R=PT96H) must not exceed msgx.pipeline.raw-retention")
                .hasMessageContaining("msgx.pipeline.dedup-memory (PT24H) must be at least msgx.pipeline.raw-retention")
                .hasMessageContaining("msgx.retention.processing-history (PT24H) must be at least");
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }
}
