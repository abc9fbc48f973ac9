package io.msgx.pipeline.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand: {@link #tick(Duration)} or {@link #set(Instant)}. Millisecond precision. */
public final class SettableClock extends Clock {

    private volatile Instant now;
    private final ZoneId zone;

    public SettableClock(Instant start) {
        this(start, ZoneOffset.UTC);
    }

    private SettableClock(Instant start, ZoneId zone) {
        this.now = start.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        this.zone = zone;
    }

    /** A clock at 2024-03-11T00:00:00Z, a day of the examples. */
    public static SettableClock atExampleDay() {
        return new SettableClock(Instant.parse("2024-03-11T00:00:00Z"));
    }

    public SettableClock tick(Duration duration) {
        now = now.plus(duration);
        return this;
    }

    public SettableClock set(Instant instant) {
        now = instant.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new SettableClock(now, zone);
    }
}
