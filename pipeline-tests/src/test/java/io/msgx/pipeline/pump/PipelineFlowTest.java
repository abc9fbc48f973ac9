package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.testing.FailingBeforeCommitStore;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/** The pipeline from mailbox to outbox over the in-memory mailbox and the H2 test store, tick by tick. */
class PipelineFlowTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore memory = H2TestStore.fresh();
    private final FailingBeforeCommitStore store = new FailingBeforeCommitStore(memory);
    private final SettableClock clock = SettableClock.atExampleDay();
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);
    private final SisMessages sis = new SisMessages();

    @Test
    void a_schedule_becomes_flights_outbox_rows_a_terminal_state_and_a_trail_line_together() {
        long id = mailbox.appendInbound(sis.schedule(
                fltr("1001", "11MAR240835", "FLNO", "CA1405"),
                fltr("1002", "11MAR240900", "FLNO", "MU5101", "MAID", "1001")), null);

        pipeline.runUntilQuiet();

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(id).lastError()).isEqualTo("applied: 2 flight(s) changed");
        assertThat(record(id).backfillNextAt()).as("the mark is owed from the end").isEqualTo(clock.instant());
        assertThat(flight("1001").stateVersion()).isEqualTo(1);
        var notifications = events(OutboxTarget.KAFKA_MSG);
        assertThat(notifications).extracting(e -> e.event().partitionKey().value()).containsExactly("1001", "1002");
        assertThat(notifications.get(0).event().payload()).contains("\"msgId\":" + id, "\"type\":\"SCHD\"", "\"styp\":\"DNLD\"");
        var projections = events(OutboxTarget.KAFKA_SCHD);
        assertThat(projections).hasSize(2);
        assertThat(projections.get(0).event().payload())
                .contains("\"flid\":\"1001\"", "\"mafl\":[{\"flid\":\"1002\",\"flno\":\"MU5101\"}]");
        assertThat(projections.get(1).event().payload()).contains("\"maid\":\"1001\"").doesNotContain("\"mafl\"");
        assertThat(memory.scheduleLog().entriesOf(id)).singleElement()
                .satisfies(e -> assertThat(e.outcome()).isEqualTo("APPLIED"));
    }

    /**
     * Issue 33 (seeds §5.1-2): a message the compatibility entry enqueued is above the watermark. Intake commits the
     * smaller mailbox IDs before it and the watermark in one transaction; if that commit falls between the pump's read
     * of the head and its read of the watermark, a head read first (the entry's message) looks covered by the new
     * watermark and is taken before the smaller IDs. The pump reads the watermark first.
     */
    @Test
    void a_message_of_the_compatibility_entry_never_overtakes_smaller_ids_intake_commits_meanwhile() {
        var intakeBetweenReads = new AtomicReference<Runnable>();
        var racing = HeadHook.afterFirstHead(memory, () -> intakeBetweenReads.get().run());
        var racingPipeline = new PipelineHarness(mailbox, racing, clock);
        intakeBetweenReads.set(racingPipeline.poller::pollOnce);
        mailbox.appendInbound(sis.schedule(fltr("7", "11MAR240835", "STND", "S1")), null);
        mailbox.appendInbound(sis.flop(FlopSubtype.STND, "7", patch("STND", "S2")), null);
        var entry = new CompatEntry(mailbox, memory.queue(), new JacksonXmlCodec(), clock);
        var late = entry.submit(sis.flop(FlopSubtype.STND, "7", patch("STND", "LAST")));

        racingPipeline.pump.tick(); // the head is the entry's message; intake commits 1..3 and the watermark meanwhile
        pipeline.runUntilQuiet();

        assertThat(late).isEqualTo(new CompatEntry.Outcome.Accepted(3, true));
        assertThat(flight("7").fields().valueOf(FlightField.STND)).as("the entry's message, last in the mailbox, wins")
                .isEqualTo("LAST");
    }

    @Test
    void messages_are_processed_strictly_in_mailbox_order() {
        long first = mailbox.appendInbound(sis.schedule(fltr("7", "11MAR240835", "STND", "1")), null);
        long second = mailbox.appendInbound(sis.flop(FlopSubtype.STND, "7", patch("STND", "2")), null);
        long third = mailbox.appendInbound(sis.flop(FlopSubtype.STND, "7", patch("STND", "3")), null);

        pipeline.runUntilQuiet();

        assertThat(flight("7").fields().valueOf(FlightField.STND)).isEqualTo("3");
        assertThat(flight("7").stateVersion()).isEqualTo(3);
        assertThat(flight("7").lastMsgId()).isEqualTo(third);
        assertThat(events(OutboxTarget.KAFKA_MSG)).extracting(e -> e.event().msgId()).containsExactly(first, second, third);
        assertThat(events(OutboxTarget.KAFKA_SCHD)).singleElement()
                .satisfies(e -> assertThat(e.event().stateVersion()).isEqualTo(3));
    }

    @Test
    void a_failing_head_holds_everything_behind_it_until_it_is_due_then_dies_exhausted() {
        long unsupported = mailbox.appendInbound(sis.other("ZZZZ", "NONE"), null);
        long behind = mailbox.appendInbound(sis.schedule(fltr("8", "11MAR240835")), null);

        var first = pipeline.runUntilQuiet();
        assertThat(first.get(first.size() - 1)).isInstanceOf(io.msgx.pipeline.pump.TickResult.WaitingForRetry.class);
        assertThat(record(unsupported).status()).isEqualTo(ProcStatus.FAILED);
        assertThat(record(unsupported).errorClass()).isEqualTo(ErrorClass.UNSUPPORTED);
        assertThat(record(unsupported).nextAttemptAt()).isEqualTo(clock.instant().plusSeconds(5));
        assertThat(record(behind).status()).as("nothing overtakes a failed head").isEqualTo(ProcStatus.PENDING);

        for (var wait : List.of(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(10))) {
            clock.tick(wait);
            pipeline.runUntilQuiet();
        }
        var dead = record(unsupported);
        assertThat(dead.status()).isEqualTo(ProcStatus.DEAD);
        assertThat(dead.errorClass()).isEqualTo(ErrorClass.EXHAUSTED);
        assertThat(dead.attempts()).isEqualTo(5);
        assertThat(dead.lastError()).as("the last failure's text is kept").contains("no processor handles ZZZZ-NONE");
        assertThat(record(behind).status()).isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void malformed_xml_and_a_vanished_row_end_dead_malformed_with_the_reason() {
        long broken = mailbox.appendInbound("<MSG><META><SNDR>AODB", null);
        long vanished = mailbox.appendInbound(sis.schedule(fltr("9", "11MAR240835")), null);
        pipeline.pollOnce();
        mailbox.deleteInbound(vanished);

        pipeline.runUntilQuiet();

        assertThat(record(broken).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(broken).errorClass()).isEqualTo(ErrorClass.MALFORMED);
        assertThat(record(broken).lastError()).isNotBlank();
        assertThat(record(broken).attempts()).as("never retried").isZero();
        assertThat(record(vanished).lastError()).isEqualTo("raw-missing: mailbox row " + vanished + " no longer exists");
        assertThat(record(vanished).errorClass()).isEqualTo(ErrorClass.MALFORMED);
    }

    @Test
    void an_unreadable_mailbox_uses_no_attempt_and_the_head_is_taken_again_as_soon_as_it_answers() {
        long id = mailbox.appendInbound(sis.schedule(fltr("9", "11MAR240835")), null);
        pipeline.pollOnce();
        mailbox.setUnavailable(true);
        assertThat(pipeline.tick()).isInstanceOf(TickResult.Unavailable.class);
        assertThat(record(id).status()).as("an outage is not held against the message").isEqualTo(ProcStatus.PENDING);
        assertThat(record(id).attempts()).isZero();

        mailbox.setUnavailable(false);
        pipeline.runUntilQuiet();
        assertThat(record(id).status()).as("no backoff to wait out").isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void a_row_that_cannot_be_read_while_the_mailbox_answers_uses_its_attempts_and_ends_dead_so_the_queue_moves_on() {
        long unreadable = mailbox.appendInbound(sis.schedule(fltr("30", "11MAR240835")), null);
        long behind = mailbox.appendInbound(sis.schedule(fltr("31", "11MAR240835")), null);
        mailbox.setUnreadable(unreadable);

        pipeline.runUntilQuiet();
        assertThat(record(unreadable).status()).isEqualTo(ProcStatus.FAILED);
        assertThat(record(unreadable).errorClass()).isEqualTo(ErrorClass.INFRA);
        assertThat(record(unreadable).attempts()).as("not an outage: the attempt counts").isEqualTo(1);
        assertThat(record(behind).status()).as("it waits behind the head").isEqualTo(ProcStatus.PENDING);

        for (int round = 0; round < 10 && record(unreadable).status() != ProcStatus.DEAD; round++) {
            clock.tick(Duration.ofHours(1));
            pipeline.runUntilQuiet();
        }
        assertThat(record(unreadable).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(unreadable).errorClass()).isEqualTo(ErrorClass.EXHAUSTED);
        assertThat(record(behind).status()).isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void a_flop_that_came_before_its_flight_is_skipped_and_applied_by_a_replay_once_the_flight_exists() {
        long early = mailbox.appendInbound(sis.flop(FlopSubtype.STND, "40", patch("STND", "504")), null);
        pipeline.runUntilQuiet();
        assertThat(record(early).lastError()).isEqualTo("no-match:unknown-flight");
        mailbox.appendInbound(sis.schedule(fltr("40", "11MAR240835")), null);
        pipeline.runUntilQuiet();
        assertThat(flight("40").fields().valueOf(FlightField.STND)).isNull();

        var replay = new io.msgx.pipeline.lifecycle.ReplayService(store.replays(),
                new io.msgx.pipeline.lifecycle.MessageLifecycleGate(), io.msgx.pipeline.lifecycle.ReplayService
                .DEFAULT_REPLAYABLE, clock).replay(List.of(early), "ops");
        pipeline.runUntilQuiet();

        assertThat(replay.replayed()).containsExactly(early);
        assertThat(record(early).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight("40").fields().valueOf(FlightField.STND)).isEqualTo("504");
    }

    @Test
    void a_business_duplicate_is_skipped_and_names_the_original() {
        var xml = sis.schedule(fltr("10", "11MAR240835"));
        long original = mailbox.appendInbound(xml, null);
        long duplicate = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
        assertThat(record(duplicate).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(duplicate).lastError()).isEqualTo("duplicate-of:" + original);
        assertThat(flight("10").stateVersion()).isEqualTo(1);
    }

    @Test
    void a_duplicate_whose_content_differs_says_so_alone_and_in_a_group_and_a_resend_with_a_new_dttm_does_not() {
        var original = sis.schedule(fltr("12", "11MAR240835", "STND", "501"));
        var corrected = original.replace("<STND>501</STND>", "<STND>502</STND>");
        var resentLater = original.replaceFirst("<DTTM>[^<]*</DTTM>", "<DTTM>20240311093000</DTTM>");
        assertThat(resentLater).as("the resend differs in its META only").isNotEqualTo(original);

        long first = mailbox.appendInbound(original, null);
        long inGroup = mailbox.appendInbound(corrected, null);
        long resend = mailbox.appendInbound(resentLater, null);
        pipeline.runUntilQuiet();
        var alone = new PipelineHarness(mailbox, store, clock, InboxSettings.defaults(),
                ProcessingSettings.defaults().withGroupSize(1));
        long single = mailbox.appendInbound(corrected, null);
        alone.runUntilQuiet();

        assertThat(record(inGroup).lastError()).isEqualTo("duplicate-of:" + first + ":content-differs");
        assertThat(record(single).lastError()).isEqualTo("duplicate-of:" + first + ":content-differs");
        assertThat(record(resend).lastError()).isEqualTo("duplicate-of:" + first);
        assertThat(flight("12").fields().valueOf(FlightField.STND)).as("the seeds' rule holds: the first one counts")
                .isEqualTo("501");
    }

    @Test
    void a_retried_message_keeps_its_identity_and_is_not_a_duplicate_of_itself() {
        long id = mailbox.appendInbound(sis.schedule(fltr("11", "11MAR240835")), null);
        store.failNext(1);
        pipeline.runUntilQuiet();
        assertThat(record(id).status()).isEqualTo(ProcStatus.FAILED);
        assertThat(record(id).identityKey()).isNotNull();

        clock.tick(Duration.ofSeconds(5));
        pipeline.runUntilQuiet();
        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void ignored_types_are_skipped_with_their_rule_and_change_nothing() {
        long ldm = mailbox.appendInbound(sis.other("LDM", "ANY"), null);
        long eror = mailbox.appendInbound(sis.other("eror", "x"), null);
        pipeline.runUntilQuiet();
        assertThat(record(ldm).lastError()).isEqualTo("ignored:LDM-*");
        assertThat(record(eror).lastError()).isEqualTo("ignored:EROR-*");
        assertThat(record(ldm).identityKey()).as("an ignored message still binds its identity").isNotNull();
        assertThat(memory.allEvents()).isEmpty();
    }

    @Test
    void a_protocol_rejection_ends_dead_and_writes_nothing() {
        mailbox.appendInbound(sis.schedule(fltr("12", "11MAR240835")), null);
        long moving = mailbox.appendInbound(sis.schedule(fltr("13", "11MAR240835"), fltr("12", "12MAR240835")), null);
        pipeline.runUntilQuiet();
        assertThat(record(moving).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(moving).errorClass()).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(record(moving).lastError()).contains("FLID 12 belongs to operation day 2024-03-11");
        assertThat(memory.allFlights()).extracting(f -> f.flid().value()).containsExactly("12");
        assertThat(memory.scheduleLog().entriesOf(moving)).singleElement()
                .satisfies(e -> assertThat(e.outcome()).isEqualTo("REJECTED"));
    }

    @Test
    void an_operation_for_an_unknown_flight_is_skipped_as_no_match() {
        long id = mailbox.appendInbound(sis.flop(FlopSubtype.GTDT, "404", patch()
                .with(io.msgx.domain.flight.FlightList.GTDT, List.of())), null);
        pipeline.runUntilQuiet();
        assertThat(record(id).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(id).lastError()).isEqualTo("no-match:unknown-flight");
    }

    @Test
    void a_deletion_emits_a_tombstone_projection_and_a_delete_notification() {
        mailbox.appendInbound(sis.schedule(fltr("14", "11MAR240835")), null);
        long fdel = mailbox.appendInbound(sis.fdel("14"), null);
        pipeline.runUntilQuiet();
        assertThat(flight("14").status()).isEqualTo(FlightStatus.DELETED);
        var projection = events(OutboxTarget.KAFKA_SCHD).get(0).event();
        assertThat(projection.eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
        assertThat(projection.payload()).isNull();
        assertThat(events(OutboxTarget.KAFKA_MSG).get(1).event().payload()).contains("\"change\":\"DELETE\"", "\"msgId\":" + fdel);
    }

    @Test
    void a_failure_between_the_flight_write_and_the_commit_leaves_no_trace_and_the_message_is_retried() {
        long id = mailbox.appendInbound(sis.schedule(fltr("15", "11MAR240835")), null);
        store.failNext(1);
        pipeline.runUntilQuiet();

        assertThat(memory.allFlights()).isEmpty();
        assertThat(memory.allEvents()).isEmpty();
        assertThat(record(id).status()).isEqualTo(ProcStatus.FAILED);
        assertThat(record(id).errorClass()).isEqualTo(ErrorClass.INTERNAL);
        assertThat(record(id).lastError()).contains("injected failure before commit");

        clock.tick(Duration.ofSeconds(5));
        pipeline.runUntilQuiet();
        assertThat(flight("15").stateVersion()).isEqualTo(1);
        assertThat(events(OutboxTarget.KAFKA_MSG)).hasSize(1);
    }

    @Test
    void a_transaction_rolled_back_as_a_deadlock_victim_is_redone_at_once_without_using_an_attempt() {
        long id = mailbox.appendInbound(sis.schedule(fltr("18", "11MAR240835")), null);
        store.rollBackNextAsDeadlockVictims(1);

        var results = pipeline.runUntilQuiet();
        assertThat(results).last().isInstanceOf(TickResult.Unavailable.class);
        assertThat(record(id).status()).isEqualTo(ProcStatus.PENDING);
        assertThat(record(id).attempts()).as("not the message's fault").isZero();
        assertThat(memory.allFlights()).isEmpty();

        pipeline.runUntilQuiet(); // the next tick, no retry delay waited
        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight("18").stateVersion()).isEqualTo(1);
        assertThat(events(OutboxTarget.KAFKA_MSG)).hasSize(1);
    }

    @Test
    void a_head_entered_above_the_watermark_waits_for_intake() {
        long id = mailbox.appendInbound(sis.schedule(fltr("16", "11MAR240835")), null);
        memory.queue().insertIfAbsent(id, null, clock.instant());
        var result = pipeline.tick();
        assertThat(result).isEqualTo(new TickResult.BeyondWatermark(id, 0, HeadBlock.BEYOND_WATERMARK));
        assertThat(record(id).status()).isEqualTo(ProcStatus.PENDING);
        pipeline.runUntilQuiet();
        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void a_head_behind_a_hole_says_the_hole_holds_it() {
        long id = mailbox.appendInbound(sis.schedule(fltr("16", "11MAR240835")), null);
        memory.queue().insertIfAbsent(id, null, clock.instant());
        memory.inboxCursor().save(0, clock.instant()); // ID 1 missing since now: a gap intake waits for

        var result = pipeline.tick();

        assertThat(result).isEqualTo(new TickResult.BeyondWatermark(id, 0, HeadBlock.HOLE));
        assertThat(record(id).status()).isEqualTo(ProcStatus.PENDING);
    }

    @Test
    void a_message_that_ended_already_is_not_applied_again_and_leaves_only_a_trail_line() {
        long id = mailbox.appendInbound(sis.schedule(fltr("17", "11MAR240835", "STND", "1")), null);
        pipeline.runUntilQuiet();
        var ended = record(id);
        var eventsBefore = memory.allEvents();
        var decoded = ((io.msgx.pipeline.codec.DecodeResult.Decoded) new io.msgx.pipeline.codec.JacksonXmlCodec()
                .decode(mailbox.readText(id).orElseThrow())).message();
        var processor = new FlightProcessor(store, new io.msgx.domain.engine.FlightStateEngine(
                io.msgx.domain.engine.EngineSettings.defaults()), clock);

        var terminal = processor.apply(ended, decoded, decoded.flightMessage().orElseThrow());

        assertThat(terminal.status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(memory.allEvents()).isEqualTo(eventsBefore);
        assertThat(flight("17").stateVersion()).isEqualTo(1);
        assertThat(record(id)).isEqualTo(ended);
        assertThat(memory.scheduleLog().entriesOf(id)).extracting(e -> e.outcome()).containsExactly("APPLIED", "REPLAYED");
    }

    @Test
    void retry_tiers_that_do_not_match_the_attempt_cap_are_refused_at_start_up() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new RetryPolicy(RetryPolicy.PROCESSING, 3, List.of(Duration.ofSeconds(1))))
                .hasMessage("msgx.pipeline.retry.backoff has 1 tiers but msgx.pipeline.retry.max-attempts=3 allows 2 "
                        + "retries: give exactly one tier per retry");
        new PipelineHarness(mailbox, store, clock, InboxSettings.defaults(),
                new ProcessingSettings(new RetryPolicy(RetryPolicy.PROCESSING, 1, List.of()), IgnoreRules.baseline(), false, false,
                        ProcessingSettings.DEFAULT_GROUP_SIZE));
    }

    private ProcRecord record(long id) {
        return memory.queue().find(id).orElseThrow();
    }

    private FlightState flight(String flid) {
        return memory.allFlights().stream().filter(f -> f.flid().equals(FlightId.of(flid))).findFirst().orElseThrow();
    }

    private List<OutboxEntry> events(OutboxTarget target) {
        return memory.allEvents().stream().filter(e -> e.event().target() == target).toList();
    }
}
