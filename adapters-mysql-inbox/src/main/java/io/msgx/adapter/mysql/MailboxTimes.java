package io.msgx.adapter.mysql;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The mailbox's {@code DATETIME(3)} values carry no zone: they are wall-clock times in {@link #zone()} (the airport
 * zone). This converts both ways at millisecond precision, independent of the JVM's default zone and of the
 * connection's session zone (the driver passes {@link LocalDateTime} through unchanged).
 *
 * <p>Values are <em>written</em> as text ({@code 2024-03-11 08:35:12.345}), not as {@link LocalDateTime}
 * parameters: Connector/J decides from the server's handshake version whether fractional seconds are supported,
 * and MariaDB 10.x announces itself as {@code 5.5.5-10.x}, below MySQL 5.6.4, so the driver silently drops the
 * milliseconds of temporal parameters. The server parses the text into {@code DATETIME(3)} exactly, on MySQL and
 * MariaDB alike. Values are <em>read</em> as {@link LocalDateTime}, which keeps the fraction.
 *
 * <p>In a zone with daylight saving, a wall time that occurs twice resolves to the earlier instant and one that
 * never occurs moves forward by the gap ({@link java.time.ZonedDateTime#of} rules).
 */
record MailboxTimes(ZoneId zone) {

    private static final DateTimeFormatter COLUMN_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

    MailboxTimes {
        Objects.requireNonNull(zone, "zone");
    }

    /** The column value for {@code instant} as DATETIME(3) text, truncated to the millisecond. */
    String toColumn(Instant instant) {
        return LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MILLIS), zone).format(COLUMN_TEXT);
    }

    /** The instant a column value stands for; null stays null. */
    Instant fromColumn(LocalDateTime value) {
        return value == null ? null : value.atZone(zone).toInstant().truncatedTo(ChronoUnit.MILLIS);
    }
}
