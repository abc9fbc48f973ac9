package io.msgx.pipeline.store;

import io.msgx.pipeline.port.ScheduleLog;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

/** What every {@link ScheduleLog} must do: keep each entry as written and give a message's entries oldest first. */
public abstract class ScheduleLogContract extends StoreContract {

    private ScheduleLog.Entry entry(long msgId, String kind, String outcome) {
        return new ScheduleLog.Entry(msgId, kind, LocalDate.of(2024, 3, 11), LocalDate.of(2024, 3, 13), 120, 7,
                outcome, clock.instant());
    }

    @Test
    void anEntryIsKeptAsWritten() {
        var log = store().scheduleLog();
        var entry = entry(17, "DNLD", "APPLIED");

        log.append(entry);

        assertThat(log.entriesOf(17)).containsExactly(entry);
    }

    @Test
    void anEntryWithoutADerivableScopeIsKept() {
        var log = store().scheduleLog();
        var entry = new ScheduleLog.Entry(17, "ADFT", null, null, 0, 0, "REJECTED", clock.instant());

        log.append(entry);

        assertThat(log.entriesOf(17)).containsExactly(entry);
    }

    @Test
    void theEntriesOfAMessageComeOldestFirstAndOnlyItsOwn() {
        var log = store().scheduleLog();
        var first = entry(17, "DNLD", "APPLIED");
        clock.tick(Duration.ofSeconds(1));
        var other = entry(18, "RESP", "UNCHANGED");
        clock.tick(Duration.ofSeconds(1));
        var second = entry(17, "DNLD", "REPLAYED");
        log.append(first);
        log.append(other);
        log.append(second);

        assertThat(log.entriesOf(17)).containsExactly(first, second);
        assertThat(log.entriesOf(18)).containsExactly(other);
    }

    @Test
    void aMessageWithoutEntriesHasNone() {
        var log = store().scheduleLog();
        log.append(entry(17, "DNLD", "APPLIED"));

        assertThat(log.entriesOf(99)).isEmpty();
    }
}
