package io.msgx.pipeline.outage;

import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An outage retried every tick is told once, reminded once a minute, and its end is told with its length. */
class OutageLogTest {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final RecordingLogger log = new RecordingLogger();
    private final OutageLog outage = new OutageLog(log, "Mailbox", clock);

    @Test
    void an_outage_retried_every_tick_is_one_warning_then_a_reminder_a_minute_then_its_end() {
        outage.failed("connection refused", "intake retries");
        for (int tick = 0; tick < 100; tick++) {
            clock.tick(Duration.ofMillis(100));
            outage.failed("connection refused", "intake retries");
        }
        assertThat(log.at(Level.WARN)).containsExactly("Mailbox unavailable; intake retries: connection refused");
        assertThat(log.at(Level.DEBUG)).hasSize(100);

        clock.tick(OutageLog.REMINDER);
        outage.failed("connection refused", "intake retries");
        assertThat(log.at(Level.WARN)).hasSize(2).last().asString()
                .isEqualTo("Mailbox still unavailable after 70 s; intake retries: connection refused");

        clock.tick(Duration.ofSeconds(5));
        outage.recovered();
        assertThat(log.at(Level.INFO)).containsExactly("Mailbox available again after 75000 ms");
        assertThat(outage.away()).isFalse();
    }

    @Test
    void success_without_an_outage_says_nothing_and_a_new_outage_is_told_again() {
        outage.recovered();
        assertThat(log.lines).isEmpty();

        outage.failed("timeout", "the pump retries next tick");
        outage.recovered();
        outage.failed("reset", "the pump retries next tick");
        assertThat(log.at(Level.WARN)).containsExactly("Mailbox unavailable; the pump retries next tick: timeout",
                "Mailbox unavailable; the pump retries next tick: reset");
        assertThat(outage.away()).isTrue();
    }

    /** Keeps every line logged, formatted, with its level. */
    private static final class RecordingLogger extends LegacyAbstractLogger {
        record Line(Level level, String text) {
        }

        final List<Line> lines = new ArrayList<>();

        List<String> at(Level level) {
            return lines.stream().filter(line -> line.level() == level).map(Line::text).toList();
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                                                   Throwable throwable) {
            lines.add(new Line(level, MessageFormatter.basicArrayFormat(pattern, arguments)));
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
