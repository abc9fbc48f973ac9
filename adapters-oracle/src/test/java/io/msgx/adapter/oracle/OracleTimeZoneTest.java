package io.msgx.adapter.oracle;

import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instants are stored as their UTC wall-clock time and come back unchanged, although every session of the test
 * database runs in a time zone other than the JVM's ({@link OracleTestDatabase#SESSION_ZONE}); days stay days.
 */
class OracleTimeZoneTest {

    private static final Instant WINTER = Instant.parse("2024-01-15T23:30:00.123456Z");
    private static final Instant SUMMER = Instant.parse("2024-07-01T02:30:00.5Z");

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final OracleProbe probe = new OracleProbe(database);
    private final SettableClock clock = SettableClock.atExampleDay();

    @Test
    void theSessionRunsInAnotherZoneThanTheJvm() {
        var jvmOffset = TimeZone.getDefault().toZoneId().getRules().getOffset(WINTER);
        assertThat(OracleTestDatabase.SESSION_ZONE.getRules().getOffset(WINTER)).isNotEqualTo(jvmOffset);
        var sessionZone = database.isRealOracle()
                ? probe.strings("SELECT SESSIONTIMEZONE AS V FROM dual")
                : probe.strings("SELECT SETTING_VALUE AS V FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'TIME ZONE'");
        assertThat(sessionZone).containsExactly(OracleTestDatabase.SESSION_ZONE.getId());
    }

    @Test
    void anInstantRoundTripsUnchangedAndIsStoredAsUtc() {
        var queue = database.store(clock).queue();
        queue.insertIfAbsent(17, WINTER, SUMMER);

        var record = queue.find(17).orElseThrow();
        assertThat(record.receivedAt()).isEqualTo(WINTER);
        assertThat(record.enqueuedAt()).isEqualTo(SUMMER);
        assertThat(probe.strings("SELECT TO_CHAR(RECEIVED_AT, 'YYYY-MM-DD HH24:MI:SS') || ' / '"
                + " || TO_CHAR(ENQUEUED_AT, 'YYYY-MM-DD HH24:MI:SS') AS V FROM PROC_STATE WHERE MSG_ID = 17"))
                .as("the column holds the UTC wall-clock time").containsExactly("2024-01-15 23:30:00 / 2024-07-01 02:30:00");
    }

    @Test
    void comparisonsUseTheInstantNotTheSessionsClock() {
        var store = database.store(clock);
        store.queue().insertIfAbsent(17, null, WINTER);
        store.queue().recordFailure(17, io.msgx.pipeline.record.ErrorClass.INFRA, "down", WINTER, WINTER);
        store.queue().exhaust(17, WINTER);

        assertThat(store.backfillMarks().backfillDue(WINTER.minusMillis(1), Instant.EPOCH, 10)).isEmpty();
        assertThat(store.backfillMarks().backfillDue(WINTER, Instant.EPOCH, 10)).hasSize(1);
    }

    @Test
    void aDayStaysTheSameDay() {
        var day = LocalDate.of(2024, 3, 31);
        var log = database.store(clock).scheduleLog();
        var entry = new ScheduleLog.Entry(17, "DNLD", day, day.plusDays(1), 3, 2, "APPLIED",
                day.atStartOfDay().toInstant(ZoneOffset.UTC));

        log.append(entry);

        assertThat(log.entriesOf(17)).containsExactly(entry);
    }
}
