package io.msgx.pipeline.lifecycle;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.pump.IgnoreRules;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.retry.RetryPolicy;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

class RetentionAndReplayChannelTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();
    private final LifecycleSettings lifecycle = LifecycleSettings.defaults();

    @Test
    void with_the_replay_channel_a_message_whose_mailbox_row_was_purged_is_replayed_from_our_copy() {
        var processing = new ProcessingSettings(RetryPolicy.processingDefaults(), IgnoreRules.baseline(), false, true,
                ProcessingSettings.DEFAULT_GROUP_SIZE);
        var pipeline = new PipelineHarness(mailbox, store, clock, InboxSettings.defaults(), processing);
        long id = mailbox.appendInbound(sis.other("ZZZZ", "X"), null);
        pipeline.runUntilQuiet();
        assertThat(store.rawCopies().find(id)).as("kept on first read").isPresent();

        mailbox.deleteInbound(id);
        clock.tick(Duration.ofSeconds(5));
        pipeline.runUntilQuiet();
        var record = store.queue().find(id).orElseThrow();
        assertThat(record.status()).as("processed from the copy, not raw-missing").isEqualTo(ProcStatus.FAILED);
        assertThat(record.lastError()).contains("no processor handles ZZZZ-X");
    }

    @Test
    void without_the_replay_channel_a_purged_row_is_raw_missing() {
        var pipeline = new PipelineHarness(mailbox, store, clock);
        long id = mailbox.appendInbound(sis.schedule(fltr("1", "11MAR240835")), null);
        pipeline.pollOnce();
        mailbox.deleteInbound(id);
        pipeline.runUntilQuiet();
        assertThat(store.queue().find(id).orElseThrow().lastError()).startsWith("raw-missing");
        assertThat(store.rawCopies().find(id)).isEmpty();
    }

    @Test
    void retention_removes_only_what_is_older_than_each_tables_retention() {
        store.rawCopies().keep(1, "<MSG/>", clock.instant());
        store.scheduleLog().append(new ScheduleLog.Entry(1, "DNLD", LocalDate.of(2024, 3, 1), LocalDate.of(2024, 3, 1), 1,
                1, "APPLIED", clock.instant()));
        var job = new RetentionJob(store, lifecycle, RetentionJob.Settings.defaults(), OperationDayRule.defaults(), clock);

        clock.tick(lifecycle.rawRetention().minusSeconds(1));
        assertThat(job.runOnce().rawCopies()).isZero();
        clock.tick(Duration.ofSeconds(2));
        assertThat(job.runOnce().rawCopies()).isEqualTo(1);

        clock.tick(Duration.ofDays(30));
        assertThat(job.runOnce().scheduleLog()).isEqualTo(1);
        assertThat(store.scheduleLog().entriesOf(1)).isEmpty();
    }

    @Test
    void settings_defaults_pass_the_start_up_check() {
        assertThat(LifecycleSettings.defaults().backfillWait(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(LifecycleSettings.defaults().backfillWait(99)).isEqualTo(Duration.ofMinutes(15));
        assertThat(List.of(FlightHistorySettings.defaults(), RetentionJob.Settings.defaults())).hasSize(2);
    }
}
