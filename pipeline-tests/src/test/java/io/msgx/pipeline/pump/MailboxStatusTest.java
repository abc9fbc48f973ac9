package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.inbox.InboxPoller;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.lifecycle.BackfillJob;
import io.msgx.pipeline.lifecycle.LifecycleSettings;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.mailbox.AcceptedStatuses;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mailbox status (sis-format §10, D-110): a row whose {@code CMINMSGS_STATUS} is not accepted ends
 * {@code SKIPPED(status:<value>)} in its FIFO place, unread (a garbage text does not make it malformed, its identity is
 * not bound), marked like every ended row, counted; it holds nothing behind it. Alone and in groups, over the in-memory
 * mailbox and the H2 test store; the real MariaDB and PostgreSQL run it in app-runner's MailboxStatusEndToEndTest.
 */
class MailboxStatusTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();
    private final List<String> statusSkips = new ArrayList<>();
    private final List<HeadBlock> heads = new ArrayList<>();
    private final PipelineMetrics metrics = new PipelineMetrics() {
        @Override
        public void statusSkipped(String status) {
            statusSkips.add(status);
        }

        @Override
        public void fifoHead(HeadBlock block) {
            heads.add(block);
        }
    };

    @ParameterizedTest(name = "group size {0}")
    @ValueSource(ints = {1, 300})
    void a_row_not_valid_ends_skipped_in_its_place_unread_marked_and_counted_and_the_fifo_goes_on(int groupSize) {
        var schedule = sis.schedule(fltr("1001", "11MAR240835", "STND", "501"));
        long before = mailbox.appendInbound(sis.schedule(fltr("1000", "11MAR240800")), null);
        long invalid = mailbox.appendInbound(schedule.replace("<STND>501</STND>", "<STND>999</STND>"), null);
        long garbage = mailbox.appendInbound("<MSG><META>not xml at all", null);
        long none = mailbox.appendInbound(sis.schedule(fltr("1002", "11MAR240900")), null);
        long after = mailbox.appendInbound(schedule, null);
        mailbox.setStatus(invalid, "INVALID");
        mailbox.setStatus(garbage, " deleted ");
        mailbox.setStatus(none, null);

        run(ProcessingSettings.defaults().withGroupSize(groupSize));

        assertThat(record(invalid).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(invalid).lastError()).isEqualTo("status:INVALID");
        assertThat(record(invalid).identityKey()).as("no identity bound").isNull();
        assertThat(record(garbage).status()).as("its text is never parsed").isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(garbage).lastError()).isEqualTo("status:deleted");
        assertThat(record(before).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(none).status()).as("NULL counts as accepted").isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(after).status()).as("the same identity as the INVALID row: not its duplicate")
                .isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(store.allFlights()).filteredOn(f -> f.flid().equals(FlightId.of("1001"))).singleElement()
                .satisfies(f -> assertThat(f.fields().valueOf(FlightField.STND)).isEqualTo("501"));
        assertThat(statusSkips).containsExactly("INVALID", "deleted");
        assertThat(heads).doesNotContain(HeadBlock.BACKOFF, HeadBlock.UNSUPPORTED);

        for (long id : List.of(invalid, garbage)) {
            assertThat(record(id).backfillNextAt()).as("the mark is owed from the end").isEqualTo(clock.instant());
        }
        new BackfillJob(mailbox, store.backfillMarks(), new MessageLifecycleGate(), LifecycleSettings.defaults(), true,
                clock).runOnce();
        for (long id : List.of(before, invalid, garbage, none, after)) {
            assertThat(mailbox.processedMarkOf(id)).as("row " + id + " marked").isPresent();
        }
    }

    @ParameterizedTest(name = "group size {0}")
    @ValueSource(ints = {1, 300})
    void with_the_check_off_every_row_is_a_message_whatever_its_status(int groupSize) {
        long invalid = mailbox.appendInbound(sis.schedule(fltr("1001", "11MAR240835")), null);
        long garbage = mailbox.appendInbound("<MSG><META>not xml at all", null);
        mailbox.setStatus(invalid, "INVALID");
        mailbox.setStatus(garbage, "INVALID");

        run(ProcessingSettings.defaults().withGroupSize(groupSize).withAcceptedStatuses(AcceptedStatuses.any()));

        assertThat(record(invalid).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(garbage).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(statusSkips).isEmpty();
    }

    @ParameterizedTest(name = "group size {0}")
    @ValueSource(ints = {1, 300})
    void the_configured_statuses_match_whatever_their_case(int groupSize) {
        long pending = mailbox.appendInbound(sis.schedule(fltr("1001", "11MAR240835")), null);
        long valid = mailbox.appendInbound(sis.schedule(fltr("1002", "11MAR240835")), null);
        mailbox.setStatus(pending, "Pending");

        run(ProcessingSettings.defaults().withGroupSize(groupSize)
                .withAcceptedStatuses(AcceptedStatuses.of(List.of("pending"))));

        assertThat(record(pending).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(valid).lastError()).as("VALID is no longer in the set").isEqualTo("status:VALID");
    }

    private void run(ProcessingSettings settings) {
        var engine = new FlightStateEngine(EngineSettings.defaults());
        var flights = new FlightProcessor(store, engine, clock, null, FlightCache.holding(settings.flightCacheSize()));
        var processor = new MessageProcessor(mailbox, store, new JacksonXmlCodec(), flights,
                new ReferenceProcessor(store, clock), settings, clock, metrics);
        var poller = new InboxPoller(mailbox, store, clock, InboxSettings.defaults(), metrics);
        var pump = new Pump(store, processor, settings.retry(), settings.groupSize(), clock, metrics);
        for (int i = 0; i < 1_000; i++) {
            poller.pollOnce();
            if (!(pump.tick() instanceof TickResult.Processed)) {
                return;
            }
        }
        throw new AssertionError("not quiet after 1000 ticks");
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }
}
